// Does a text reply report finished work? Then the turn ends without a nudge.
import { isIncompleteResponse } from './incomplete';
import { normalizeForAnalysis, withoutCode } from './text';

const DONE_VERBS =
  'completed|finished|done|updated|created|added|appended|saved|fixed|renamed|implemented|changed|modified|removed|deleted|refactored|moved|wrote|written|replaced|converted|installed|configured|resolved|applied|made|ran|run|verified|tested|cleaned up|set up|extracted|merged|split|organized|organised|generated|edited|corrected|adjusted';

const COMPLETION_SIGNALS: readonly RegExp[] = [
  new RegExp(`\\b(?:all|every|each|both)\\s+(?:of\\s+)?(?:the\\s+)?(?:\\w+\\s+){0,3}(?:have|has)\\s+(?:now\\s+)?been\\s+(?:successfully\\s+)?(?:${DONE_VERBS}|\\w+ed)\\b`, 'i'),
  new RegExp(`\\bI(?:'ve| have)?\\s+(?:now\\s+|successfully\\s+|also\\s+)*(?:${DONE_VERBS})\\b`, 'i'),
  /\b(?:the\s+)?(?:task|work|job|changes?|fix|refactor(?:ing)?|implementation|update|migration|rename)\s+(?:is|are|has been|have been)\s+(?:now\s+)?(?:fully\s+)?(?:complete|completed|done|finished|applied|in place|made)\b/i,
  /\bsuccessfully\b/i,
  /^(?:all\s+)?(?:done|finished|completed|complete)\b[.!:]?/im,
  /\bhere(?:'s| is) (?:a |the )?summary\b|\bsummary of (?:the |my |what )?(?:changes|work|I did)|^#+\s*summary\b|^\*\*summary\*\*/im,
  /\b(?:now|all)\s+(?:tests?\s+)?(?:pass(?:es)?|works?|compiles?|builds?)\b|\ball (?:the )?tests (?:now )?pass\b/i,
  /\bno (?:further|more) (?:changes|work|steps) (?:are |is )?(?:needed|required|necessary)\b/i,
];

/** A reply that reports the work as finished (and does not also say that some remains). */
export function isCompletionSummary(text: string): boolean {
  const prose = normalizeForAnalysis(withoutCode(text));
  if (prose === '') return false;
  if (!COMPLETION_SIGNALS.some((p) => p.test(prose))) return false;
  return !isIncompleteResponse(text);
}
