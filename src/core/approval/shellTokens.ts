// A small POSIX-shell tokenizer for reading what a command line visibly does: words after quote removal,
// operators, redirections, here-documents skipped, and the text of command substitutions handed back so the
// caller can read those too. It never runs or expands anything; unknown constructs stay plain words.

export interface WordToken {
  kind: 'word';
  /** The word after quote removal; variables stay as written ("$DIR/x"), except a leading $HOME becomes "~". */
  text: string;
}

export interface OpToken {
  kind: 'op';
  /** "&&", "||", ";", "|", "&", "\n", "(", ")", or a redirection (">", ">>", "&>", "<", "<<", …). */
  text: string;
  /** The file descriptor written before a redirection ("2" in "2>"). */
  fd?: string;
}

export type ShellToken = WordToken | OpToken;

export interface Tokenized {
  tokens: ShellToken[];
  /** Command lines inside $(…), `…`, <(…) and >(…), to be read the same way. */
  nested: string[];
}

const OPERATORS = ['&&', '&>>', '&>', '&', '||', '|&', '|', ';;', ';', '<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];

export function tokenizeShell(src: string): Tokenized {
  const tokens: ShellToken[] = [];
  const nested: string[] = [];
  const heredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let expectHeredocDelimiter: boolean | undefined; // stripTabs of the pending "<<" / "<<-"
  let word = '';
  let inWord = false;
  let i = 0;

  const endWord = () => {
    if (!inWord) return;
    if (expectHeredocDelimiter !== undefined) {
      heredocs.push({ delimiter: word, stripTabs: expectHeredocDelimiter });
      expectHeredocDelimiter = undefined;
    }
    tokens.push({ kind: 'word', text: homePrefix(word) });
    word = '';
    inWord = false;
  };
  const skipHeredocBodies = () => {
    for (const doc of heredocs.splice(0)) {
      while (i < src.length) {
        const nl = src.indexOf('\n', i);
        const line = src.slice(i, nl < 0 ? src.length : nl);
        i = nl < 0 ? src.length : nl + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
      }
    }
  };

  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '\n') {
      endWord();
      tokens.push({ kind: 'op', text: '\n' });
      i++;
      skipHeredocBodies();
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      word += src[i + 1] ?? '';
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      word += src.slice(i + 1, end < 0 ? src.length : end);
      inWord = true;
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    if (c === '"') {
      i = readDoubleQuoted(src, i + 1, (text) => (word += text), nested);
      inWord = true;
      continue;
    }
    if (c === '$' && src[i + 1] === "'") {
      i = readAnsiQuoted(src, i + 2, (text) => (word += text));
      inWord = true;
      continue;
    }
    if (c === '$' && src[i + 1] === '(') {
      const arithmetic = src[i + 2] === '(';
      const end = balancedEnd(src, i + 2);
      if (!arithmetic) nested.push(src.slice(i + 2, end - 1));
      word += src.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '$' && src[i + 1] === '{') {
      const close = src.indexOf('}', i + 2);
      const end = close < 0 ? src.length : close + 1;
      word += src.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '`') {
      const end = backtickEnd(src, i + 1);
      nested.push(src.slice(i + 1, end - 1));
      word += src.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if ((c === '<' || c === '>') && src[i + 1] === '(') {
      // Process substitution: the inner command runs; the outer command sees a file name.
      endWord();
      const end = balancedEnd(src, i + 2);
      nested.push(src.slice(i + 2, end - 1));
      tokens.push({ kind: 'word', text: src.slice(i, end) });
      i = end;
      continue;
    }
    if ('&|;<>()'.includes(c)) {
      let fd: string | undefined;
      if ((c === '<' || c === '>') && inWord && /^\d+$/.test(word)) {
        fd = word;
        word = '';
        inWord = false;
      } else endWord();
      if (c === '(' || c === ')') {
        tokens.push({ kind: 'op', text: c });
        i++;
        continue;
      }
      const op = OPERATORS.find((o) => src.startsWith(o, i))!;
      tokens.push(fd === undefined ? { kind: 'op', text: op } : { kind: 'op', text: op, fd });
      if (op === '<<' || op === '<<-') expectHeredocDelimiter = op === '<<-';
      i += op.length;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endWord();
  return { tokens, nested };
}

/** Reads "…" from just after the opening quote; returns the index after the closing one. */
function readDoubleQuoted(src: string, start: number, append: (text: string) => void, nested: string[]): number {
  let i = start;
  while (i < src.length && src[i] !== '"') {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length) {
      const next = src[i + 1]!;
      append('$`"\\\n'.includes(next) ? (next === '\n' ? '' : next) : c + next);
      i += 2;
    } else if (c === '$' && src[i + 1] === '(') {
      const end = balancedEnd(src, i + 2);
      if (src[i + 2] !== '(') nested.push(src.slice(i + 2, end - 1));
      append(src.slice(i, end));
      i = end;
    } else if (c === '`') {
      const end = backtickEnd(src, i + 1);
      nested.push(src.slice(i + 1, end - 1));
      append(src.slice(i, end));
      i = end;
    } else {
      append(c);
      i++;
    }
  }
  return Math.min(i + 1, src.length);
}

/** $'…' with the common backslash escapes. */
function readAnsiQuoted(src: string, start: number, append: (text: string) => void): number {
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', e: '\x1b', '0': '\0' };
  let i = start;
  while (i < src.length && src[i] !== "'") {
    if (src[i] === '\\' && i + 1 < src.length) {
      append(escapes[src[i + 1]!] ?? src[i + 1]!);
      i += 2;
    } else {
      append(src[i]!);
      i++;
    }
  }
  return Math.min(i + 1, src.length);
}

/** From just after "(": the index after the matching ")", skipping quoted text. Unbalanced: the end of the text. */
function balancedEnd(src: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      i = end < 0 ? src.length : end + 1;
    } else if (c === '"') {
      i = readDoubleQuoted(src, i + 1, () => undefined, []);
    } else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i + 1;
      i++;
    }
  }
  return src.length;
}

function backtickEnd(src: string, start: number): number {
  let i = start;
  while (i < src.length && src[i] !== '`') i += src[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, src.length);
}

/** "$HOME/x" and "${HOME}/x" are the home folder, like "~/x". */
function homePrefix(word: string): string {
  const m = /^(?:\$HOME|\$\{HOME\})(?=\/|$)/.exec(word);
  return m ? '~' + word.slice(m[0].length) : word;
}
