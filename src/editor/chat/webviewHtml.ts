// The chat webview's HTML: a pure function of the nonce, the webview's CSP source and the bundle URIs.
// Strict CSP: nothing loads unless listed; scripts only with the nonce; no inline styles at all.
import { escapeHtml } from '../../shared/escape';

export interface WebviewHtmlInput {
  /** Base64 nonce from createNonce(); a new one per load. */
  nonce: string;
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  /** `webview.asWebviewUri(dist/webview.js)` as a string. */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview.css)` as a string. */
  styleUri: string;
  /** `webview.asWebviewUri(dist/codicon.css)`: VS Code's icon font (its TTF loads from the same folder). */
  iconStyleUri?: string;
}

export function buildContentSecurityPolicy(input: Pick<WebviewHtmlInput, 'nonce' | 'cspSource'>): string {
  checkNonce(input.nonce);
  checkSource(input.cspSource);
  return [
    "default-src 'none'",
    `script-src 'nonce-${input.nonce}'`,
    `style-src ${input.cspSource}`,
    `font-src ${input.cspSource}`,
    // Model output cannot load remote images (no tracking pixels); local icons and data URIs only.
    `img-src ${input.cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

export function buildWebviewHtml(input: WebviewHtmlInput): string {
  const csp = buildContentSecurityPolicy(input);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${input.iconStyleUri ? `<link rel="stylesheet" href="${escapeHtml(checkUri(input.iconStyleUri))}">\n` : ''}<link rel="stylesheet" href="${escapeHtml(checkUri(input.styleUri))}">
<title>Local Harness</title>
</head>
<body>
<div id="root"></div>
<script nonce="${escapeHtml(input.nonce)}" src="${escapeHtml(checkUri(input.scriptUri))}"></script>
</body>
</html>
`;
}

function checkNonce(nonce: string): void {
  // CSP's base64-value grammar; anything else could break out of the header.
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(nonce)) throw new Error('webview nonce must be at least 16 base64 characters');
}

function checkSource(source: string): void {
  // A source list: code-server's is e.g. "'self' https://*.vscode-cdn.net", so quotes and spaces are fine;
  // a ';' or a line break would start a new directive.
  if (!source.trim() || /[;,"<>\r\n]/.test(source)) throw new Error(`invalid webview CSP source: ${source}`);
}

function checkUri(uri: string): string {
  // asWebviewUri yields https/http/vscode-* URIs depending on the host; script-bearing schemes are never right.
  if (!uri.trim() || /^\s*(javascript|data|blob|vbscript):/i.test(uri)) throw new Error(`unexpected webview resource URI: ${uri}`);
  return uri;
}
