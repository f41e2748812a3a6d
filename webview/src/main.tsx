import { render } from 'preact';
import { App } from './components/App';
import { connectToHost } from './host';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<App host={connectToHost()} />, root);
