// Whether a command line starts with an allowed prefix: shared by approval rules and the sandbox's network
// exceptions, so both read "npm install" the same way. A prefix covers exactly one simple command (see
// shell/simpleCommand.ts): a second line, a separator, a substitution or a wrapper that runs a string is never
// covered, whatever the prefix, and the user is asked instead.
import { innerCommand } from './shell/innerCommand';
import { parseSimpleCommand, type Word } from './shell/simpleCommand';

export type Coverable = { ok: true; words: Word[]; /** Words a prefix must reach: the inner command's name. */ minWords: number } | { ok: false; reason: string };

/** Whether any prefix rule could cover this command line, and if not, why. */
export function coverable(command: string): Coverable {
  const parsed = parseSimpleCommand(command);
  if (!parsed.ok) return parsed;
  // Redirections are not words of the command: the wrappers are read without them.
  const words = parsed.words.filter((w) => !w.redirect);
  const inner = innerCommand(words);
  if (!inner.ok) return inner;
  return { ok: true, words: parsed.words, minWords: parsed.words.indexOf(words[inner.index] ?? words[0]!) + 1 };
}

export function commandHasPrefix(command: string, prefix: string): boolean {
  const p = parseSimpleCommand(prefix);
  if (!p.ok) return false;
  const c = coverable(command);
  if (!c.ok) return false;
  // "npm test" covers "npm test -- -x" but not "npm testing"; "env" alone never covers "env rm -rf ~".
  if (p.words.length < c.minWords || p.words.length > c.words.length) return false;
  // A redirection to a file is covered only when the prefix names it: `npm test` never covers `npm test > ~/.bashrc`.
  if (c.words.slice(p.words.length).some((w) => w.redirect)) return false;
  return p.words.every((w, k) => w.key === c.words[k]!.key);
}
