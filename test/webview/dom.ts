// Imported first by every webview test: a browser-like global DOM for Preact and Testing Library.
import { GlobalRegistrator } from '@happy-dom/global-registrator';

if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: 'vscode-webview://test/index.html' });
  // happy-dom's global `Document` is not the class its `document` inherits from, so
  // `document instanceof Document` is false; the UI toolkit (FAST) relies on that check to decide
  // where its design tokens (the --vscode-* themed CSS variables) are written.
  let proto: object | null = Object.getPrototypeOf(document) as object | null;
  while (proto && proto.constructor.name !== 'Document') proto = Object.getPrototypeOf(proto) as object | null;
  if (!proto) throw new Error('happy-dom: the document has no Document class in its prototype chain');
  globalThis.Document = proto.constructor as typeof Document;
}
