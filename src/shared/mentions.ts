// `@` mentions in the message box: where one is being typed, what the host offers for it, and how files are
// ranked. Shared by the panel (completion) and the host (candidates); no DOM, no node.
import * as z from 'zod/mini';

export const MentionCandidateSchema = z.object({
  kind: z.enum(['file', 'folder', 'problems', 'terminal', 'symbol']),
  /** What the list shows and what replaces the typed `@query` ("src/app.ts", "problems"). */
  label: z.string().check(z.minLength(1), z.maxLength(1000)),
  /** A second, dimmer line: "3 errors, 1 warning", "function in src/a.ts:12". */
  detail: z.optional(z.string().check(z.maxLength(1000))),
  /** What the host needs to attach it: a workspace-relative path, or a symbol's "path:start-end". */
  ref: z.string().check(z.maxLength(8000)),
});
export type MentionCandidate = z.infer<typeof MentionCandidateSchema>;
export const MAX_MENTION_CANDIDATES = 50;

/** Webview → host: complete `query`; choose one. Host → webview: the candidates for `query`. */
export const MentionWebviewMessages = [
  z.object({ type: z.literal('mentionQuery'), query: z.string().check(z.maxLength(500)) }),
  z.object({ type: z.literal('mention'), candidate: MentionCandidateSchema }),
] as const;
export const MentionHostMessages = [
  z.object({
    type: z.literal('mentionCandidates'),
    query: z.string().check(z.maxLength(500)),
    items: z.array(MentionCandidateSchema).check(z.maxLength(MAX_MENTION_CANDIDATES)),
  }),
] as const;

/** The `@word` the cursor is in or right after: `start` is the `@`'s index. An `@` inside a word (an e-mail) is none. */
export function mentionAtCursor(text: string, cursor: number): { start: number; query: string } | undefined {
  let i = cursor - 1;
  while (i >= 0 && !/\s/.test(text[i]!) && text[i] !== '@') i--;
  if (i < 0 || text[i] !== '@') return undefined;
  if (i > 0 && !/\s/.test(text[i - 1]!)) return undefined;
  return { start: i, query: text.slice(i + 1, cursor) };
}

/** The text with the `@query` at `start` replaced by `@label ` (the chip carries the data; the words keep the name). */
export function replaceMention(text: string, start: number, cursor: number, label: string): { text: string; cursor: number } {
  const insert = `@${label} `;
  return { text: text.slice(0, start) + insert + text.slice(cursor).replace(/^ /, ''), cursor: start + insert.length };
}

/**
 * Paths that match `query`, best first: the name starting with it, then the name containing it, then the path
 * containing it, then its letters in order (fuzzy); shorter paths first within each rank. Case-insensitive.
 */
export function rankPaths(paths: readonly string[], query: string, limit: number): string[] {
  const q = query.toLowerCase();
  const scored: Array<{ path: string; rank: number }> = [];
  for (const path of paths) {
    const lower = path.toLowerCase();
    const name = lower.replace(/\/$/, '').split('/').pop()!;
    const rank = q === '' ? 0 : name.startsWith(q) ? 0 : name.includes(q) ? 1 : lower.includes(q) ? 2 : inOrder(lower, q) ? 3 : -1;
    if (rank >= 0) scored.push({ path, rank });
  }
  scored.sort((a, b) => a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.path);
}

function inOrder(text: string, letters: string): boolean {
  let at = 0;
  for (const c of letters) {
    at = text.indexOf(c, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** The fixed mentions, offered when their name matches what is typed. */
export function specialMentions(query: string, problems: string | undefined, terminal: string | undefined): MentionCandidate[] {
  const q = query.toLowerCase();
  const out: MentionCandidate[] = [];
  if ('problems'.startsWith(q)) out.push({ kind: 'problems', label: 'problems', detail: problems ?? 'the editor\'s errors and warnings', ref: 'problems' });
  if ('terminal'.startsWith(q)) out.push({ kind: 'terminal', label: 'terminal', detail: terminal ?? 'the last command\'s output', ref: 'terminal' });
  return out;
}
