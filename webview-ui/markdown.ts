// Model output -> safe DOM. marked turns markdown into HTML (raw HTML in it filtered first, see rawHtml.ts);
// DOMPurify then keeps only an allowlist of plain formatting tags and web links, so nothing the model writes
// can run script or load anything.
import { Marked, type Tokens } from 'marked';
import createDOMPurify, { type Config, type WindowLike } from 'dompurify';
import { escapeHtml } from './escape';
import { filterHtmlTokens } from './rawHtml';

export type MarkdownWindow = WindowLike & { document: Document };

export interface MarkdownRenderer {
  /** Markdown to a sanitized fragment with code blocks decorated (copy button). */
  render(markdown: string): DocumentFragment;
  /** The HTML string handed to the DOM parser (raw HTML already filtered), exposed for tests. */
  toHtml(markdown: string): string;
  /** Raw HTML to a sanitized fragment: the safety net under render(), exposed for tests. */
  sanitize(html: string): DocumentFragment;
}

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'b', 'i', 'u', 's', 'del', 'ins', 'mark',
  'code', 'pre', 'kbd', 'samp', 'sub', 'sup', 'small', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'a', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'details', 'summary', 'span', 'div',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'colspan', 'rowspan', 'open'];

const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Only web links survive; relative, javascript:, data:, vbscript:, file: and command: URIs are dropped.
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  FORBID_TAGS: ['style', 'script', 'iframe', 'frame', 'object', 'embed', 'img', 'svg', 'math', 'form', 'input', 'link', 'meta', 'base'],
  KEEP_CONTENT: true,
};

/** Classes the model may set: only code-language hints. Anything else could impersonate the panel's own UI. */
const SAFE_CLASS = /^language-[\w+#.-]{1,40}$/;

export function createMarkdownRenderer(win: MarkdownWindow): MarkdownRenderer {
  const purify = createDOMPurify(win);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      const kept = data.attrValue.split(/\s+/).filter((c) => SAFE_CLASS.test(c));
      if (kept.length) data.attrValue = kept.join(' ');
      else data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href === null) return;
    if (!/^https?:\/\//i.test(href.trim())) {
      node.removeAttribute('href');
      return;
    }
    // Clicks are intercepted and sent to the host; these only matter if something bypasses that.
    node.setAttribute('rel', 'noopener noreferrer');
    if (!node.getAttribute('title')) node.setAttribute('title', href);
  });

  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    hooks: { processAllTokens: (tokens) => filterHtmlTokens(tokens) },
    renderer: {
      // No remote images (tracking, CSP): show an image as a link to it.
      image({ href, text }: Tokens.Image): string {
        return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
      },
      checkbox({ checked }: Tokens.Checkbox): string {
        return checked ? '☑ ' : '☐ ';
      },
    },
  });

  const sanitize = (html: string): DocumentFragment => purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });

  const toHtml = (markdown: string): string => {
    try {
      return marked.parse(markdown, { async: false });
    } catch {
      // A parser bug must not hide the answer: show it as plain text.
      return `<pre>${escapeHtml(markdown)}</pre>`;
    }
  };

  return {
    sanitize,
    toHtml,
    render(markdown: string): DocumentFragment {
      const fragment = sanitize(toHtml(markdown));
      decorateCodeBlocks(fragment, win.document);
      return fragment;
    },
  };
}

/** Wraps each <pre> in a block with its language and a Copy button (handled by delegation, no inline handlers). */
function decorateCodeBlocks(fragment: DocumentFragment, doc: Document): void {
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) {
    const block = doc.createElement('div');
    block.className = 'code-block';
    const bar = doc.createElement('div');
    bar.className = 'code-bar';
    const lang = doc.createElement('span');
    lang.className = 'code-lang';
    const langClass = pre.querySelector('code')?.className.match(/language-([\w+#.-]+)/);
    lang.textContent = langClass ? langClass[1]! : '';
    const copy = doc.createElement('button');
    copy.type = 'button';
    copy.className = 'copy-code';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', 'Copy code');
    bar.append(lang, copy);
    pre.replaceWith(block);
    block.append(bar, pre);
  }
}
