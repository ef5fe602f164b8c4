// Text helpers shared by the response detectors: think-block removal, quote normalisation, sentence split.

/** Removes `<think>…</think>` blocks (and an unclosed trailing one) so only the answer is analysed. */
export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(?:<\/think>|$)/gi, '').replace(/^[\s\S]*?<\/think>/i, '');
}

/** Curly quotes and apostrophes as plain ASCII, whitespace collapsed: the patterns stay simple. */
export function normalizeForAnalysis(text: string): string {
  return stripThinking(text)
    .replace(/[\u2018\u2019\u02BC]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Prose only: fenced code blocks removed, since code ("remaining = 3") says nothing about the model's progress. */
export function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

/** Sentences and list items, each trimmed. Good enough for pattern checks that must not cross sentences. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
