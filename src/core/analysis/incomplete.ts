// Does a text reply say that work remains? Then the model stopped too early and should be nudged on.
import { normalizeForAnalysis, sentencesOf, withoutCode } from './text';

export interface IncompleteOptions {
  /** Todos still open in the tracker; any open todo means the work is not finished. */
  openTodos?: number;
}

// Each pattern is checked per sentence, so "the remaining tests pass" in one sentence cannot combine
// with "next" in another. Sentences that are conditional offers ("If you want, I'll…") are skipped.
const WORK_REMAINS: readonly RegExp[] = [
  /\b(?:[1-9]\d*|several|some|a few|few|more|other|many|two|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+){0,2}(?:remain|remaining|left|to go)\b(?!\s+(?:unchanged|untouched|as is|alone|intact|in place|over|out))/i,
  /\b(?:process|handle|do|rename|update|fix|finish|complete|continue with|move on to|work on|tackle|edit|convert)\s+the\s+(?:remaining|rest|other|next)\b/i,
  /\b(?:the )?(?:remaining|rest of the)\s+(?:\w+\s+){0,2}(?:still|will|need|needs|have to|has to|are pending|is pending)\b/i,
  /\b(?:next|then|after that|afterwards),?\s+I(?:'ll| will| am going to|'m going to| need to| must| should)\b/i,
  /^(?:now |next |first |then )?I(?:'ll| will| am going to|'m going to)\s+(?:now |next |then |first |also )?(?:continue|proceed|start|begin|move on|process|handle|work on|rename|update|create|fix|implement|run|check|read|look|add|edit|write|modify|open|search|list|go through|do|apply|make|change|refactor|test|verify|install|remove|delete)\b/i,
  /^let me\s+(?!know\b|summari[sz]e|recap|explain|be clear)(?:now |first |next |also |then )?\w+/i,
  /^(?:now|next),?\s+(?:I|let's|we)\b/i,
  /\b(?:continuing|proceeding|moving on) (?:with|to)\b/i,
  /\b(?:still|yet) (?:need|needs|have|has) to\b/i,
  /\bnot (?:yet )?(?:done|finished|complete|completed)\b(?! with that)/i,
  /\b(?:is|are) yet to be\b/i,
  /\b(?:still )?in progress\b/i,
  /\bto be continued\b/i,
  /\bwill (?:continue|proceed|resume|finish)\b/i,
  /\b(?:next step|next steps) (?:is|are|will be)\b/i,
  /\bstep (\d+)\s*(?:\/|of)\s*(\d+)\b/i,
  /\bbefore (?:I|we) (?:continue|proceed|finish)\b/i,
  /\b(?:processed|renamed|updated|done|handled|fixed|converted|completed|finished)\s+(?:\w+\s+){0,2}(\d+)\s+(?:of|out of)\s+(\d+)\b/i,
];

const NEGATED = /\b(?:no|none|nothing|zero|0)\s+(?:\w+\s+){0,2}(?:remain|remaining|left)\b|\bnothing (?:else )?(?:to do|remains)\b/i;
const CONDITIONAL = /^(?:if|should you|in case|whenever|once you|when you)\b|\b(?:if you(?:'d| would)? (?:like|want|prefer|need)|let me know)\b/i;

export function isIncompleteResponse(text: string, options: IncompleteOptions = {}): boolean {
  if ((options.openTodos ?? 0) > 0) return true;
  const prose = normalizeForAnalysis(withoutCode(text));
  if (prose === '') return false;
  // Stopped mid-thought ("Now I'll update the config:"); judged on the full text, since a colon followed by a code block is complete.
  if (/(?:\.\.\.|…|:)\s*$/.test(normalizeForAnalysis(text))) return true;
  if (/^\s*[-*]\s+\[ \]/m.test(prose)) return true; // unchecked markdown checkbox
  if (hasUnfinishedPlan(prose)) return true;
  for (const sentence of sentencesOf(prose)) {
    if (CONDITIONAL.test(sentence) || NEGATED.test(sentence)) continue;
    for (const pattern of WORK_REMAINS) {
      const m = pattern.exec(sentence);
      if (!m) continue;
      // "renamed 7 of 7" is done; "renamed 3 of 7" is not.
      if (m[1] !== undefined && m[2] !== undefined && Number(m[1]) >= Number(m[2])) continue;
      return true;
    }
  }
  return false;
}

/** A numbered plan announced in the future tense ("I will: 1. … 2. …") with no sign that it was carried out. */
function hasUnfinishedPlan(prose: string): boolean {
  const lines = prose.split('\n');
  const firstItem = lines.findIndex((l) => /^\s*\d+[.)]\s+\S/.test(l));
  if (firstItem < 0) return false;
  const items = lines.filter((l) => /^\s*\d+[.)]\s+\S/.test(l)).length;
  if (items < 2) return false;
  const intro = lines.slice(0, firstItem).join(' ');
  const announcesPlan = /\b(?:plan|I(?:'ll| will| am going to|'m going to)|let me|here(?:'s| is) what I(?:'ll| will)|steps? I(?:'ll| will)|going to)\b/i.test(intro);
  const reportsDone = /\b(?:I(?:'ve| have)|done|completed|finished|made the following|changed|summary)\b/i.test(intro);
  return announcesPlan && !reportsDone;
}
