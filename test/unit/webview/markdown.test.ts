// The markdown sanitiser under hostile model output, in a real DOM (jsdom with scripts enabled, so an
// inline handler that survived would actually run and set the flag).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { createMarkdownRenderer } from '../../../webview-ui/markdown';
import { filterRawHtml } from '../../../webview-ui/rawHtml';

const PWN = 'window.__pwned = (window.__pwned || 0) + 1';

function setup() {
  const dom = new JSDOM('<!DOCTYPE html><body><div id="out"></div></body>', { runScripts: 'dangerously', pretendToBeVisual: true });
  const renderer = createMarkdownRenderer(dom.window);
  const out = dom.window.document.getElementById('out')!;
  const pwned = () => (dom.window as unknown as { __pwned?: number }).__pwned ?? 0;
  return { dom, renderer, out, pwned };
}

/** Fire everything a handler could hang on, so a surviving handler gets its chance to run. */
function provoke(dom: JSDOM, root: Element): void {
  const win = dom.window;
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const type of ['click', 'error', 'load', 'mouseover', 'focus', 'toggle', 'animationstart']) {
      el.dispatchEvent(new win.Event(type, { bubbles: true }));
    }
  }
}

const ALLOWED = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'b', 'i', 'u', 's', 'del', 'ins', 'mark',
  'code', 'pre', 'kbd', 'samp', 'sub', 'sup', 'small', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'details', 'summary', 'span', 'div', 'button',
]);

/** The invariants every rendered fragment must satisfy, whatever went in. */
function assertSafe(root: Element, input: string): void {
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    assert.ok(ALLOWED.has(tag), `tag <${tag}> survived: ${input}`);
    if (tag === 'button') assert.equal(el.className, 'copy-code', `only our own copy buttons: ${input}`);
    for (const attr of Array.from(el.attributes)) {
      assert.ok(!attr.name.startsWith('on'), `handler ${attr.name} survived: ${input}`);
      assert.notEqual(attr.name, 'style', `inline style survived: ${input}`);
      assert.notEqual(attr.name, 'src', `src survived: ${input}`);
      if (attr.name === 'href') assert.match(attr.value, /^https?:\/\//i, `href ${attr.value} survived: ${input}`);
      if (attr.name === 'class') {
        // Our own code-block decoration, or a language hint; nothing else (model output cannot fake panel UI).
        assert.match(attr.value, /^(language-[\w+#.-]+|code-block|code-bar|code-lang|copy-code)$/, `class ${attr.value} survived: ${input}`);
      }
    }
  }
}

const HOSTILE = [
  '<script>' + PWN + '</script>',
  'text <script src="https://evil.example/x.js"></script> more',
  '<img src=x onerror="' + PWN + '">',
  '![logo](https://tracker.example/pixel.png)',
  '<img src="https://tracker.example/p.png">',
  '[click](javascript:' + PWN + ')',
  '[click](JaVaScRiPt:' + PWN + ')',
  '[click](  javascript:' + PWN + ')',
  '[click](java&#x09;script:' + PWN + ')',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](vbscript:msgbox)',
  '[click](command:workbench.action.terminal.new)',
  '[click](file:///etc/passwd)',
  '<a href="javascript:' + PWN + '">raw link</a>',
  '<a href="https://ok.example" onclick="' + PWN + '">ok but handler</a>',
  '<iframe src="https://evil.example" onload="' + PWN + '"></iframe>',
  '<iframe srcdoc="<script>parent.' + PWN + '</script>"></iframe>',
  '<style>body { display: none }</style>visible',
  '<div style="position:fixed;inset:0">overlay</div>',
  '<svg onload="' + PWN + '"><circle r="5"/></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="' + PWN + '">',
  '<form action="https://evil.example"><button formaction="javascript:' + PWN + '">go</button></form>',
  '<input autofocus onfocus="' + PWN + '">',
  '<details open ontoggle="' + PWN + '"><summary>s</summary>x</details>',
  '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x">',
  '<link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="https://evil.example/">',
  '<noscript><p title="</noscript><img src=x onerror=' + PWN + '>"></p></noscript>',
  '<p class="tool-card message-error" data-status="done" id="root">fake card</p>',
  '<a href="https://ok.example" target="_blank" style="color:red">styled</a>',
  '<video><source onerror="' + PWN + '"></video><audio src=x onerror="' + PWN + '"></audio>',
  '```html\n<script>' + PWN + '</script>\n```',
  '<marquee onstart="' + PWN + '">x</marquee>',
  '<x onclick="' + PWN + '">custom element</x>',
];

test('the harness can see an unsanitised handler run (control: the hostile tests can fail)', () => {
  const { dom, out, pwned } = setup();
  out.innerHTML = '<button onclick="' + PWN + '">x</button>';
  provoke(dom, out);
  assert.equal(pwned(), 1);
});

test('hostile markdown and HTML never run script and keep only safe markup', () => {
  for (const input of HOSTILE) {
    const { dom, renderer, out, pwned } = setup();
    out.replaceChildren(renderer.render(input));
    provoke(dom, out);
    assert.equal(pwned(), 0, `script ran for: ${input}`);
    assertSafe(out, input);
  }
});

test('hostile markup never reaches the HTML parser: no handler, style or script-like tag in the parsed string', () => {
  // Chromium reports a CSP violation just for parsing an inline handler, even in an inert document.
  const { renderer } = setup();
  for (const input of HOSTILE) {
    const html = renderer.toHtml(input);
    assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, `handler attribute in: ${html}`);
    assert.doesNotMatch(html, /<[^>]*\sstyle\s*=/i, `style attribute in: ${html}`);
    assert.doesNotMatch(html, /<(script|style|iframe|img|svg|math|object|embed|form|input|link|meta|base|video|audio|source|x|marquee|noscript)\b/i, `tag in: ${html}`);
  }
});

test('raw HTML keeps bare formatting tags, drops the rest, keeps the reader\'s text', () => {
  assert.equal(filterRawHtml('<kbd>Ctrl</kbd>+<KBD>C</KBD>'), '<kbd>Ctrl</kbd>+<kbd>C</kbd>');
  assert.equal(filterRawHtml('line<br/>next<br >'), 'line<br>next<br>');
  assert.equal(filterRawHtml('<details><summary>More</summary>hidden</details>'), '<details><summary>More</summary>hidden</details>');
  assert.equal(filterRawHtml('<kbd onclick="x()">k</kbd>'), 'k', 'a kept tag with attributes is dropped, not cleaned');
  assert.equal(filterRawHtml('<a href="javascript:alert(1)">raw anchor</a>'), 'raw anchor');
  assert.equal(filterRawHtml('a<script>alert("<b>")</script>b<style>p{}</style>c'), 'abc');
  assert.equal(filterRawHtml('x<script>never closed'), 'x');
  assert.equal(filterRawHtml('<!-- note -->1 < 2 & "q"'), '1 &lt; 2 &amp; &quot;q&quot;');
  assert.equal(filterRawHtml('<img src=x onerror=alert(1)>after'), 'after');
  assert.equal(filterRawHtml('<p title="</noscript><img src=x onerror=alert(1)>">t</p>'), 't');
  assert.equal(filterRawHtml('</p>stray</b><b>ok</b>'), 'stray<b>ok</b>', 'end tags only for what was opened');
});

test('the sanitiser alone (no markdown step) strips the same things from raw HTML', () => {
  for (const input of HOSTILE) {
    const { dom, renderer, out, pwned } = setup();
    out.replaceChildren(renderer.sanitize(input));
    provoke(dom, out);
    assert.equal(pwned(), 0, `script ran for: ${input}`);
    assertSafe(out, input);
  }
});

test('specific hostile cases: what is removed and what text stays', () => {
  const { renderer, out } = setup();
  out.replaceChildren(renderer.render('before <script>alert(1)</script> after'));
  assert.equal(out.querySelector('script'), null);
  assert.doesNotMatch(out.textContent ?? '', /alert/);
  assert.match(out.textContent ?? '', /before\s+after/);

  out.replaceChildren(renderer.render('[click me](javascript:alert(1))'));
  const link = out.querySelector('a');
  assert.ok(link, 'the link text stays');
  assert.equal(link.textContent, 'click me');
  assert.equal(link.hasAttribute('href'), false);

  out.replaceChildren(renderer.render('![a diagram](https://example.com/d.png)'));
  assert.equal(out.querySelector('img'), null, 'images are never loaded');
  assert.equal(out.querySelector('a')?.getAttribute('href'), 'https://example.com/d.png');
  assert.equal(out.querySelector('a')?.textContent, 'a diagram');

  out.replaceChildren(renderer.render('<style>p{color:red}</style><iframe src="https://x.example"></iframe>ok'));
  assert.equal(out.querySelector('style, iframe'), null);
  assert.match(out.textContent ?? '', /ok/);

  out.replaceChildren(renderer.render('<p class="tool-card">spoof</p>'));
  assert.equal(out.querySelector('.tool-card'), null, 'model output cannot impersonate panel UI');

  out.replaceChildren(renderer.render('Press <kbd>Ctrl</kbd> and <a href="javascript:alert(1)">raw anchor</a>, inline <script>alert(2)</script> done'));
  assert.equal(out.querySelector('kbd')?.textContent, 'Ctrl');
  assert.equal(out.querySelector('a'), null);
  assert.match(out.textContent ?? '', /raw anchor/);
  assert.doesNotMatch(out.textContent ?? '', /alert/);
  assert.match(out.textContent ?? '', /done/);

  out.replaceChildren(renderer.render('<kbd><img src=x onerror=alert(1)>a < b</kbd>'));
  assert.equal(out.querySelector('img'), null);
  assert.equal(out.querySelector('kbd')?.textContent, 'a < b', 'text inside a raw block is escaped, not parsed');
});

test('ordinary markdown renders: headings, lists, tables, inline code, web links', () => {
  const { renderer, out } = setup();
  out.replaceChildren(
    renderer.render('# Title\n\n- one\n- **two**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nUse `npm test` and see [docs](https://example.com/docs).\n\n- [x] done\n- [ ] todo'),
  );
  assert.equal(out.querySelector('h1')?.textContent, 'Title');
  assert.equal(out.querySelectorAll('li').length, 4);
  assert.equal(out.querySelector('strong')?.textContent, 'two');
  assert.equal(out.querySelectorAll('td').length, 2);
  assert.equal(out.querySelector('p code')?.textContent, 'npm test');
  const link = out.querySelector('a')!;
  assert.equal(link.getAttribute('href'), 'https://example.com/docs');
  assert.equal(link.getAttribute('rel'), 'noopener noreferrer');
  assert.equal(link.getAttribute('title'), 'https://example.com/docs');
  assert.match(out.textContent ?? '', /☑ done/);
  assert.equal(out.querySelector('input'), null, 'task list checkboxes are text, not inputs');
});

test('code blocks get a language label and a Copy button, content untouched', () => {
  const { renderer, out } = setup();
  const code = 'const a = "<b>" && 1 < 2;\n<script>alert(1)</script>';
  out.replaceChildren(renderer.render('```ts\n' + code + '\n```\n\n```\nplain\n```'));
  const blocks = out.querySelectorAll('.code-block');
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]!.querySelector('.code-lang')?.textContent, 'ts');
  assert.equal(blocks[0]!.querySelector('pre code')?.textContent, code + '\n');
  assert.equal(blocks[0]!.querySelector('pre code')?.className, 'language-ts');
  const copy = blocks[0]!.querySelector('button.copy-code')!;
  assert.equal(copy.textContent, 'Copy');
  assert.equal(copy.getAttribute('aria-label'), 'Copy code');
  assert.equal(copy.getAttribute('type'), 'button');
  assert.equal(blocks[1]!.querySelector('.code-lang')?.textContent, '');
  assert.equal(out.querySelector('script'), null);
});

test('partial markdown mid-stream renders without throwing', () => {
  const { renderer, out } = setup();
  for (const partial of ['```ts\nconst a', '**bold', '[link](https://exa', '| a |\n|--', '<scr', '<img src=x onerror=']) {
    out.replaceChildren(renderer.render(partial));
    assertSafe(out, partial);
  }
});
