// The webview HTML: strict CSP, nonce-only scripts, no inline script or style, escaped inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { buildContentSecurityPolicy, buildWebviewHtml } from '../../../../src/editor/chat/webviewHtml';
import { createNonce } from '../../../../src/editor/chat/nonce';

const input = {
  nonce: 'c29tZS1yYW5kb20tbm9uY2UtMTIz',
  cspSource: 'https://*.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
};

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

test('the CSP denies by default and allows only the nonce script and the extension origin', () => {
  const csp = buildContentSecurityPolicy(input);
  const d = directives(csp);
  assert.deepEqual(d.get('default-src'), ["'none'"]);
  assert.deepEqual(d.get('script-src'), [`'nonce-${input.nonce}'`]);
  assert.deepEqual(d.get('style-src'), [input.cspSource]);
  assert.deepEqual(d.get('img-src'), [input.cspSource, 'data:']);
  assert.deepEqual(d.get('font-src'), [input.cspSource]);
  assert.deepEqual(d.get('base-uri'), ["'none'"]);
  assert.deepEqual(d.get('form-action'), ["'none'"]);
  assert.deepEqual(d.get('frame-src'), ["'none'"]);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*;|https:\s|connect-src/);
});

test('the HTML carries the CSP meta, one nonce script from the bundle, and no inline code or style', () => {
  const html = buildWebviewHtml(input);
  const doc = new JSDOM(html).window.document;
  const meta = doc.querySelector('meta[http-equiv="Content-Security-Policy"]');
  assert.equal(meta?.getAttribute('content'), buildContentSecurityPolicy(input));
  const scripts = Array.from(doc.querySelectorAll('script'));
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]!.getAttribute('nonce'), input.nonce);
  assert.equal(scripts[0]!.getAttribute('src'), input.scriptUri);
  assert.equal(scripts[0]!.textContent, '', 'no inline script');
  assert.equal(doc.querySelector('link[rel="stylesheet"]')?.getAttribute('href'), input.styleUri);
  assert.equal(doc.querySelectorAll('style, [style]').length, 0, 'no inline styles');
  assert.equal(Array.from(doc.querySelectorAll('*')).some((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on'))), false);
  assert.ok(doc.getElementById('root'));
});

test("code-server's source list (with 'self') is accepted", () => {
  const csp = buildContentSecurityPolicy({ nonce: input.nonce, cspSource: "'self' https://*.vscode-cdn.net" });
  assert.deepEqual(directives(csp).get('style-src'), ["'self'", 'https://*.vscode-cdn.net']);
});

test('inputs that could break out of the CSP or the markup are refused or escaped', () => {
  assert.throws(() => buildWebviewHtml({ ...input, nonce: "abc'; script-src *" }), /nonce/);
  assert.throws(() => buildWebviewHtml({ ...input, nonce: 'short' }), /nonce/);
  assert.throws(() => buildWebviewHtml({ ...input, cspSource: 'https://x; script-src *' }), /CSP source/);
  assert.throws(() => buildWebviewHtml({ ...input, cspSource: ' ' }), /CSP source/);
  assert.throws(() => buildWebviewHtml({ ...input, scriptUri: 'javascript:alert(1)' }), /URI/);
  assert.throws(() => buildWebviewHtml({ ...input, styleUri: 'data:text/css,body{}' }), /URI/);
  const html = buildWebviewHtml({ ...input, scriptUri: 'https://x/a.js?"><script>alert(1)</script>' });
  const doc = new JSDOM(html).window.document;
  assert.equal(doc.querySelectorAll('script').length, 1);
  assert.equal(doc.querySelector('script')?.getAttribute('src'), 'https://x/a.js?"><script>alert(1)</script>');
});

test('nonces are fresh, long and valid CSP base64', () => {
  const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
  assert.equal(nonces.size, 50);
  for (const n of nonces) {
    assert.match(n, /^[A-Za-z0-9+/]{24}$/);
    assert.doesNotThrow(() => buildContentSecurityPolicy({ nonce: n, cspSource: input.cspSource }));
  }
});
