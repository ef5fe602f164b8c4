// Does a text reply say it lacks a tool, and which? Weak models stop with "I can't do this: none of the offered
// tools provides `list_directory`." instead of looking for one with tool_search. The names they give are the
// lead: tool-like words (in backticks, or snake_case) in a reply that says a tool is missing.
import { normalizeForAnalysis } from './text';

/** Says a tool is missing, not offered, or not available. */
const LACK_PATTERNS: readonly RegExp[] = [
  /\bnone of (?:the|my|these|your) (?:offered |available |provided )?tools\b/i,
  /\bno (?:such |suitable |matching |available )?tool\b/i,
  /\b(?:don't|do not|doesn't|does not) (?:have|offer|provide|include)\b[^.!?\n]{0,60}\btools?\b/i,
  /\btools?\b[^.!?\n]{0,60}\b(?:is|are) (?:not|n't) (?:offered|available|provided|listed|among)\b/i,
  /\b(?:without|lack(?:ing)?|missing)\b[^.!?\n]{0,40}\btools?\b/i,
  /\b(?:can't|cannot|unable to) (?:find|see|use) (?:a|the|any)\b[^.!?\n]{0,40}\btools?\b/i,
];

const NOT_NAMES = new Set(['tool', 'tools', 'task', 'file', 'files']);

/** Tool names the reply says it lacks ([] when it does not say a tool is missing). */
export function claimedMissingTools(text: string): string[] {
  const plain = normalizeForAnalysis(text);
  if (!LACK_PATTERNS.some((p) => p.test(plain))) return [];
  const names = new Set<string>();
  for (const m of text.matchAll(/`([A-Za-z][\w.-]{1,63})`/g)) names.add(m[1]!);
  for (const m of text.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g)) names.add(m[1]!);
  return [...names].filter((n) => !NOT_NAMES.has(n.toLowerCase()));
}
