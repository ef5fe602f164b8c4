// Words of a tool for ranking: its name split into words (`files__move_file`, `readTextFile`), its
// description and its parameter names, through one small tokenizer with a crude stemmer so that
// "renaming", "renamed" and "rename" meet. Not linguistics: just enough for tool names and one-line docs.
import type { ToolDefinition } from '../../messages';

/** `files__move_file` → files move file; `readTextFile` → read text file; `HTTPServer2` → http server 2. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

// Words that say nothing about which tool fits. Kept short on purpose: "not", "all", "new" can matter.
const STOPWORDS = new Set(
  'a an the and or of to in on at by for with from as is are be been was were it its this that these those you your i me my we our please can could would should will do does did if then than so into only use used using when which what how'.split(
    ' ',
  ),
);

/** Crude suffix stripping, applied the same way to tools and queries. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Stems of words seen before: each request tokenises its query again, and queries repeat their words. */
const STEMS = new Map<string, string>();
const STEM_CACHE = 5000;

function stemOf(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    s = stem(word);
    if (STEMS.size >= STEM_CACHE) STEMS.clear();
    STEMS.set(word, s);
  }
  return s;
}

/** Lines tokenised before: each request ranks tools against its latest messages, which repeat for a few rounds. */
const LINES = new Map<string, readonly string[]>();
const LINE_CACHE = 2000;
const CACHED_LINE_CHARS = 400;

/** Lower-case stems of the words in `text`, identifiers split, stopwords dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  // Words never span lines, so the text can be taken line by line.
  for (const line of text.split('\n')) {
    if (line.length > CACHED_LINE_CHARS) {
      tokenizeLine(line, out);
      continue;
    }
    let tokens = LINES.get(line);
    if (tokens === undefined) {
      tokens = tokenizeLine(line, []);
      if (LINES.size >= LINE_CACHE) LINES.clear();
      LINES.set(line, tokens);
    }
    for (const t of tokens) out.push(t);
  }
  return out;
}

function tokenizeLine(line: string, out: string[]): string[] {
  for (const raw of line.match(/[A-Za-z0-9_]+/g) ?? []) {
    // Most words are plain lower case: nothing to split.
    const words = /^[a-z0-9]+$/.test(raw) ? [raw] : identifierWords(raw);
    for (const word of words) {
      if (STOPWORDS.has(word)) continue;
      out.push(stemOf(word));
    }
  }
  return out;
}

/** Top-level parameter names of a tool's JSON Schema. */
export function parameterNames(def: ToolDefinition): string[] {
  const props = (def.parameters as { properties?: unknown }).properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
}

/**
 * The tokens a tool is found by. The name counts twice: it is the densest description a tool has.
 * Parameter names help a little ("source", "destination" for a move).
 */
export function toolTokens(def: ToolDefinition): string[] {
  const name = tokenize(def.name);
  return [...name, ...name, ...tokenize(def.description), ...parameterNames(def).flatMap(tokenize)];
}

/** Longest description part embedded for a tool; embedding models have small windows and the start says most. */
const MAX_EMBED_CHARS = 1500;

/** The text a tool is embedded as: its name in words, then its description. */
export function toolEmbeddingText(def: ToolDefinition): string {
  const description = def.description.length > MAX_EMBED_CHARS ? def.description.slice(0, MAX_EMBED_CHARS) : def.description;
  return `${identifierWords(def.name).join(' ')}: ${description}`;
}
