import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { chatDocument } from './webview-document';

/** The chat view's HTML for this webview, with fresh nonces on every load. */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', name)).toString();
  return chatDocument({
    cspSource: webview.cspSource,
    scriptUri: asset('webview.js'),
    styleUri: asset('webview.css'),
    scriptNonce: randomBytes(18).toString('base64'),
    styleNonce: randomBytes(18).toString('base64'),
  });
}
