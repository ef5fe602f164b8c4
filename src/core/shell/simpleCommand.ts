// Reads a command line strictly: is it exactly ONE simple command (a name and its arguments), and which words?
// Approval rules and network exceptions cover a command by its leading words, so anything that could run a
// second command, or that this reader cannot be sure of, is refused with a reason: line breaks and control
// characters, separators, pipes, substitutions, here-documents, comments, history expansion, unclosed quotes.
// A redirection to or from a file is kept as a word of its own (marked), so a rule covers it only by naming it;
// one to /dev/null or between descriptors ("2>&1") is dropped. It never runs or expands anything.
// Hand-written on purpose: the npm shell parsers are either partial (shell-quote has no here-documents and reads
// a line break as a space) or far heavier than the extension bundle should carry (bash-parser, mvdan-sh).

export interface Word {
  /** After quote removal, variables as written ("$HOME/x"). */
  text: string;
  /**
   * The word's meaning, for comparing two words: characters the shell would treat specially are escaped when they
   * were quoted ("'*'" → "\*", "*" → "*"), so `'$X'` and `$X` differ although both read "$X".
   */
  key: string;
  /** Holds an unquoted or double-quoted expansion ($NAME, ${NAME}, $'…'), a glob or a brace the shell may expand. */
  expands: boolean;
  /** A redirection and its file ("> out.log"): not a word of the command, but part of what the line does. */
  redirect?: true;
}

export type ParsedLine = { ok: true; words: Word[] } | { ok: false; reason: string };

/** Special when unquoted: escaped in a word's key when they were quoted. */
const SPECIAL = new Set(['$', '*', '?', '[', ']', '{', '}', '~', '\\', '"', "'", '=', ',', '!', '^']);

export function parseSimpleCommand(line: string): ParsedLine {
  const bad = /[\u0000-\u0008\n-\u001f\u007f\u0085\u2028\u2029]/.exec(line);
  if (bad) return fail(bad[0] === '\n' || bad[0] === '\r' ? 'it spans more than one line' : 'it holds a control character');
  const words: Word[] = [];
  let text = '';
  let key = '';
  let expands = false;
  let inWord = false;
  let quotedInWord = false;
  /** A file redirection ("2>>") waiting for its target word. */
  let pending: string | undefined;
  const endWord = () => {
    if (inWord && pending !== undefined) words.push({ text: `${pending}${text}`, key: `\u0000${pending}\u0000${key}`, expands, redirect: true });
    else if (inWord) words.push({ text, key, expands });
    if (inWord) pending = undefined;
    text = key = '';
    expands = inWord = quotedInWord = false;
  };
  const literal = (c: string) => {
    text += c;
    key += SPECIAL.has(c) ? '\\' + c : c;
  };
  const raw = (c: string) => {
    text += c;
    key += c;
  };
  if (line.trimStart().startsWith('^')) return fail('it starts with "^" (history substitution)');
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
      continue;
    }
    if (c === '#' && !inWord) return fail('it holds a comment ("#"), which some shells read as a word');
    if (c === '!') return fail('it holds "!" (history expansion in an interactive shell)');
    if (c === '`') return fail('it holds a command substitution (`…`)');
    if (c === ';' || c === '|' || c === '(' || c === ')') return fail(`it chains or groups commands ("${c}")`);
    if (c === '&' && line[i + 1] !== '>') return fail('it chains commands or runs one in the background ("&")');
    if (c === '<' || c === '>' || c === '&') {
      // A redirection: "2>&1", ">/dev/null", "&>/dev/null" are harmless; anything else is not one plain command.
      if (pending !== undefined) return fail('a redirection has no file');
      const fd = inWord && !quotedInWord && /^\d+$/.test(text) ? text : undefined;
      if (inWord && fd === undefined) endWord();
      const r = redirection(line, i);
      if (!r.ok) return r;
      text = key = '';
      expands = inWord = quotedInWord = false;
      if (r.file !== undefined) pending = `${fd ?? ''}${r.file}`;
      i = r.end;
      continue;
    }
    inWord = true;
    if (c === '\\') {
      if (i + 1 >= line.length) return fail('it ends with "\\" (a line continuation)');
      literal(line[i + 1]!);
      quotedInWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return fail('a quote is not closed');
      for (const ch of line.slice(i + 1, end)) literal(ch);
      quotedInWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const r = doubleQuoted(line, i + 1, literal, raw);
      if (!r.ok) return r;
      if (r.expands) expands = true;
      quotedInWord = true;
      i = r.end;
      continue;
    }
    if (c === '$') {
      const r = dollar(line, i);
      if (!r.ok) return r;
      if (r.text === '$') literal('$');
      else {
        raw(r.text);
        expands = true;
      }
      i = r.end;
      continue;
    }
    if ('*?[{'.includes(c) || (c === '~' && text === '')) expands = true;
    raw(c);
    i++;
  }
  endWord();
  if (pending !== undefined) return fail('a redirection has no file');
  if (words.every((w) => w.redirect)) return fail('it holds no command');
  return { ok: true, words };
}

type Step = { ok: true; end: number; /** A file redirection's operator: its target is the next word. */ file?: string } | { ok: false; reason: string };

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** At "<", ">" or "&>": a descriptor copy or /dev/null (dropped), a file redirection (its operator), or a refusal. */
function redirection(line: string, start: number): Step {
  const op = /^(?:&>>|&>|>>|>&|<&|>|<)/.exec(line.slice(start))?.[0];
  if (!op || /^[<>]\(/.test(line.slice(start)) || /^(?:<<|<>|>\|)/.test(line.slice(start))) {
    return fail(/^[<>]\(/.test(line.slice(start)) ? 'it holds a process substitution' : /^<</.test(line.slice(start)) ? 'it holds a here-document' : 'it redirects to or from a file');
  }
  let i = start + op.length;
  if (op === '>&' || op === '<&') {
    const m = /^(?:\d+|-)(?=$|[ \t])/.exec(line.slice(i));
    if (m) return { ok: true, end: i + m[0].length };
  }
  while (line[i] === ' ' || line[i] === '\t') i++;
  const m = /^\/dev\/null(?=$|[ \t])/.exec(line.slice(i));
  if (m) return { ok: true, end: i + m[0].length };
  // "&>file", ">&file": both streams to a file.
  return { ok: true, end: i, file: op === '>&' ? '&>' : op === '<&' ? '<' : op };
}

/** "…" from just after the opening quote. */
function doubleQuoted(line: string, start: number, literal: (c: string) => void, raw: (c: string) => void): { ok: true; end: number; expands: boolean } | { ok: false; reason: string } {
  let i = start;
  let expands = false;
  while (i < line.length && line[i] !== '"') {
    const c = line[i]!;
    if (c === '`') return fail('it holds a command substitution (`…`)');
    if (c === '!') return fail('it holds "!" (history expansion in an interactive shell)');
    if (c === '\\') {
      const next = line[i + 1];
      if (next === undefined) break;
      if ('$`"\\'.includes(next)) literal(next);
      else {
        literal('\\');
        literal(next);
      }
      i += 2;
      continue;
    }
    if (c === '$') {
      const r = dollar(line, i);
      if (!r.ok) return r;
      if (r.text === '$') literal('$');
      else {
        raw('"' + r.text + '"');
        expands = true;
      }
      i = r.end;
      continue;
    }
    literal(c);
    i++;
  }
  if (i >= line.length) return fail('a quote is not closed');
  return { ok: true, end: i + 1, expands };
}

/** At "$": a plain variable, ${NAME}, $'…'; a substitution or any other expansion is refused. */
function dollar(line: string, start: number): { ok: true; end: number; text: string } | { ok: false; reason: string } {
  const rest = line.slice(start);
  if (rest.startsWith('$(')) return fail(rest.startsWith('$((') ? 'it holds an arithmetic expansion' : 'it holds a command substitution ($(…))');
  const m = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9#?*@$-]|\{[A-Za-z_][A-Za-z0-9_]*\})/.exec(rest);
  if (m) return { ok: true, end: start + m[0].length, text: m[0] };
  if (rest.startsWith('${')) return fail('it holds a parameter expansion this reader does not follow (${…})');
  if (rest.startsWith("$'")) {
    let i = start + 2;
    while (i < line.length && line[i] !== "'") i += line[i] === '\\' ? 2 : 1;
    if (i >= line.length) return fail('a quote is not closed');
    return { ok: true, end: i + 1, text: line.slice(start, i + 1) };
  }
  if (rest.startsWith('$"')) return fail('it holds a $"…" string');
  return { ok: true, end: start + 1, text: '$' };
}
