/**
 * The chat webview's document and its Content Security Policy, kept free of `vscode` so the policy
 * is unit-tested. Nothing loads by default; scripts only with the per-load script nonce; styles
 * from the extension's files, plus `<style>` elements carrying the separate style nonce. The UI
 * toolkit's runtime probes `:focus-visible` support with one such element and finds the nonce in
 * the `csp-nonce` meta tag. No 'unsafe-inline' and no 'unsafe-eval' anywhere.
 */
export interface ChatDocumentParts {
  /** `webview.cspSource`: the origin the extension's own files are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  scriptNonce: string;
  styleNonce: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function contentSecurityPolicy(
  parts: Pick<ChatDocumentParts, 'cspSource' | 'scriptNonce' | 'styleNonce'>,
): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${parts.scriptNonce}'`,
    `style-src ${parts.cspSource} 'nonce-${parts.styleNonce}'`,
    `font-src ${parts.cspSource}`,
    `img-src ${parts.cspSource} data:`,
  ].join('; ');
}

export function chatDocument(parts: ChatDocumentParts): string {
  if (parts.scriptNonce === parts.styleNonce) throw new Error('the script and style nonces must differ');
  const a = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(parts))}">
<meta property="csp-nonce" content="${a(parts.styleNonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(parts.styleUri)}">
<title>VT Code</title>
</head>
<body>
<div id="app"></div>
<script nonce="${a(parts.scriptNonce)}" src="${a(parts.scriptUri)}"></script>
</body>
</html>`;
}
