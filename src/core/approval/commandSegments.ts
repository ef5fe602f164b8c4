// Every place in a command line where a command starts, for deny rules: a deny rule for "rm" must also catch
// `echo ok; rm -rf x`, `nohup rm x`, `sh -c "rm x"`, `$(rm x)` and `find . -exec rm {} +`. Allow rules never use
// this (they cover one simple command only, commandPrefix.ts); a deny rule is best effort on top of that.
import { tokenizeShell } from './shellTokens';
import { parseSimpleCommand } from '../shell/simpleCommand';

const MAX_NESTING = 4;
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '\n', '(', ')']);
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'time', 'exec', 'command', 'builtin', 'nohup', 'setsid', 'xargs', 'sudo', 'doas', 'env', 'nice', 'stdbuf', 'timeout', 'watch']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish']);

/** The words from each command start on (wrappers' own options included; a prefix is matched word by word). */
export function commandStarts(command: string): string[][] {
  const out: string[][] = [];
  collect(command.replace(/\r/g, '\n'), out, 0);
  return out;
}

/** Whether a deny prefix names any command the line starts. */
export function mentionsCommand(command: string, prefix: string): boolean {
  // The prefix's words as the shell reads them ("git commit -m 'wip'"), or plainly split when it is not one command.
  const parsed = parseSimpleCommand(prefix);
  const want = parsed.ok ? parsed.words.filter((w) => !w.redirect).map((w) => w.text) : prefix.trim().split(/\s+/).filter((w) => w !== '');
  if (want.length === 0) return false;
  return commandStarts(command).some((words) => want.every((w, k) => (k === 0 ? baseName(words[0] ?? '') === baseName(w) : words[k] === w)));
}

function collect(command: string, out: string[][], depth: number): void {
  if (depth > MAX_NESTING) return;
  const { tokens, nested } = tokenizeShell(command);
  let words: string[] = [];
  const flush = () => {
    starts(words, out, depth);
    words = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'word') words.push(t.text);
    else if (SEPARATORS.has(t.text)) flush();
    else if (tokens[i + 1]?.kind === 'word') i++; // a redirection's target is not a word of the command
  }
  flush();
  for (const inner of nested) collect(inner, out, depth + 1);
}

/** Each suffix of `words` that begins at a command name: the first non-assignment word, after each wrapper, after -exec. */
function starts(words: readonly string[], out: string[][], depth: number): void {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w) || w.startsWith('-')) continue;
    const name = baseName(w);
    out.push(words.slice(i));
    if (SHELLS.has(name)) {
      const c = words.findIndex((a, k) => k > i && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
      if (c > 0 && words[c + 1] !== undefined) collect(words[c + 1]!, out, depth + 1);
      return;
    }
    if (name === 'eval') return collect(words.slice(i + 1).join(' '), out, depth + 1);
    if (name === 'find' || name === 'fd') {
      words.forEach((a, k) => {
        if (k > i && /^(?:-exec|-execdir|-ok|-okdir|-x|-X|--exec|--exec-batch)$/.test(a) && words[k + 1]) out.push(words.slice(k + 1));
      });
      return;
    }
    if (!RESERVED.has(name)) return;
    // A wrapper: the next word that is not an option (or an option's value we cannot tell apart) may be the command.
  }
}

function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
