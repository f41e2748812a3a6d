// Imported first by every webview test: a browser-like global DOM for Preact and Testing Library.
import { GlobalRegistrator } from '@happy-dom/global-registrator';

if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: 'vscode-webview://test/index.html' });
