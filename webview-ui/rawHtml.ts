// Raw HTML inside model markdown is filtered as text, before any HTML parser sees it: only bare allowlisted
// formatting tags survive (re-emitted without attributes), script-like containers go with their content,
// every other tag is dropped and all text is escaped. Parsing `<img onerror>` even in an inert document makes
// Chromium report a CSP violation, so hostile markup must never reach the parser; DOMPurify still runs after.
import type { Token, Tokens } from 'marked';
import { escapeHtml } from './escape';

/** Formatting a model may legitimately write as HTML; kept only without attributes. */
const KEEP = new Set([
  'b', 'i', 'em', 'strong', 'u', 's', 'del', 'ins', 'mark', 'kbd', 'sub', 'sup', 'small', 'code', 'span', 'br', 'hr',
  'p', 'div', 'pre', 'details', 'summary', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);

/** Elements whose content is code or foreign markup, not text for the reader: removed whole. */
const DROP_WITH_CONTENT = [
  'script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'template', 'svg',
  'math', 'object', 'select', 'plaintext',
];
const DROP_SET = new Set(DROP_WITH_CONTENT);
const CONTAINERS = new RegExp(`<(${DROP_WITH_CONTENT.join('|')})\\b[\\s\\S]*?(?:<\\/\\1\\s*>|$)`, 'gi');
// A comment, or a start/end tag with well-formed attributes (what an HTML parser would take as a tag).
const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;

/** Tags this filter has emitted and not yet closed, shared across the pieces of one document. */
export type OpenTags = Map<string, number>;

export function filterRawHtml(html: string, open: OpenTags = new Map()): string {
  const text = html.replace(CONTAINERS, '');
  // End tags only for what this filter opened: a stray </p> would make the parser invent an element.
  let out = '';
  let last = 0;
  for (const m of text.matchAll(TAG)) {
    out += escapeHtml(text.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (!name || !KEEP.has(name)) continue;
    if (m[1]) {
      const count = open.get(name) ?? 0;
      if (count > 0) {
        open.set(name, count - 1);
        out += `</${name}>`;
      }
    } else if (!(m[3] ?? '').trim()) {
      if (name !== 'br' && name !== 'hr') open.set(name, (open.get(name) ?? 0) + 1);
      out += `<${name}>`;
    }
  }
  return out + escapeHtml(text.slice(last));
}

/** Applies the filter to a marked token tree in place (hooks.processAllTokens). */
export function filterHtmlTokens(tokens: Token[], open: OpenTags = new Map()): Token[] {
  let dropUntil: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'html') {
      const html = token as Tokens.HTML | Tokens.Tag;
      if (html.block) {
        html.text = filterRawHtml(html.text, open);
        continue;
      }
      // Inline tags come one per token: a script-like container spans several siblings.
      const tag = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)/.exec(html.text);
      const name = tag?.[2]?.toLowerCase();
      if (dropUntil !== null) {
        if (tag?.[1] && name === dropUntil) dropUntil = null;
        tokens.splice(i--, 1);
        continue;
      }
      if (name && !tag?.[1] && DROP_SET.has(name)) {
        dropUntil = name;
        tokens.splice(i--, 1);
        continue;
      }
      html.text = filterRawHtml(html.text, open);
      continue;
    }
    if (dropUntil !== null) {
      tokens.splice(i--, 1);
      continue;
    }
    // Text after an opening <code>/<kbd>/<pre> comes out unescaped ("raw block"); escape it like any text.
    if (token.type === 'text' && (token as Tokens.Text).escaped) (token as Tokens.Text).escaped = false;
    for (const children of childLists(token)) filterHtmlTokens(children, open);
  }
  return tokens;
}

function childLists(token: Token): Token[][] {
  const lists: Token[][] = [];
  if ('tokens' in token && Array.isArray(token.tokens)) lists.push(token.tokens as Token[]);
  if (token.type === 'list') for (const item of (token as Tokens.List).items) lists.push(item.tokens);
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    for (const cell of table.header) lists.push(cell.tokens);
    for (const row of table.rows) for (const cell of row) lists.push(cell.tokens);
  }
  return lists;
}
