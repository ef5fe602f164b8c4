// Does a text reply refuse, claim it has no access, or hand the work back to the user instead of using tools?
import { isCompletionSummary } from './completion';
import { normalizeForAnalysis, withoutCode } from './text';

const CANT = "(?:can't|cannot|can not|am unable to|'m unable to|am not able to|'m not able to|won't be able to|will not be able to|do not have the ability to|don't have the ability to)";
const ACT = '(?:access|read|open|see|view|modify|edit|change|write|create|delete|rename|move|run|execute|browse|interact with|reach|look at|inspect|check|perform|make changes|directly)';

/** Refusals and "no access" claims: the model has tools that do exactly this. */
export const REFUSAL_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\bI\\s*${CANT}\\s+(?:directly\\s+)?${ACT}\\b`, 'i'),
  /\bI (?:don't|do not) have (?:direct |any |the )?(?:access|permission|permissions)\b/i,
  /\bI have no (?:direct )?(?:access|way|means|ability) to\b/i,
  /\bas an AI\b/i,
  /\bas a (?:large )?language model\b/i,
  /\bI(?:'m| am) (?:just |only )?(?:an AI|a language model|a text-based|an assistant without)\b/i,
  /\bI (?:don't|do not) have (?:the )?(?:ability|capability|capabilities|tools?|means) to\b/i,
  /\bI (?:lack|do not possess) the (?:ability|capability|access|tools)\b/i,
  /\bI(?:'m| am) sorry,? but I (?:can't|cannot|am unable|'m unable|won't)\b/i,
  /\bI(?:'m| am) not (?:allowed|permitted|authori[sz]ed) to\b/i,
  /\b(?:beyond|outside(?: of)?) (?:my|the) (?:capabilities|abilities|scope|reach)\b/i,
  /\bI (?:can't|cannot|am unable to) (?:help|assist) with (?:that|this)\b/i,
  /\b(?:no|without) access to (?:your|the) (?:files?|file ?system|system|computer|machine|terminal|shell|workspace|repo(?:sitory)?|codebase|project|environment|disk)\b/i,
  /\bI(?:'d| would) need (?:you to|access to|more information)\b/i,
  /\bin a real (?:environment|scenario|system|setting)\b|\bhypothetically\b|\bI would (?:then )?(?:run|execute|use the)\b/i,
  /\b(?:my|the) (?:tools|environment) (?:don't|do not|cannot|can't) (?:allow|let|support)\b/i,
];

/** Handing the work or the decision back to the user. Weak on its own: a finished summary may end with an offer. */
export const HANDBACK_PATTERNS: readonly RegExp[] = [
  /\b(?:you(?:'ll| will)? (?:need|have) to|you (?:should|must|can|could|may want to)) (?:manually |first |now )?(?:run|execute|open|create|edit|modify|rename|delete|move|copy|paste|install|type|navigate|apply|replace|update)\b/i,
  /\bplease (?:run|execute|open|provide|paste|share|upload|copy|send|confirm|tell me|let me know which)\b/i,
  /\b(?:could|can|would) you (?:please )?(?:provide|share|paste|run|tell|clarify|upload|confirm|specify|send|show|give)\b/i,
  /\bwould you like me to\b/i,
  /\b(?:shall|should) I (?:proceed|continue|go ahead|start|begin|do|make|apply)\b/i,
  /\bdo you want me to\b/i,
  /\b(?:here(?:'s| is) how you can|you can do (?:this|that|it) by|follow these steps|steps you can take)\b/i,
  /\b(?:in|from|using) your (?:terminal|shell|command line|editor|IDE|file manager)\b/i,
];

/** Every pattern the detector knows, for documentation and tests. */
export const DEFLECTION_PATTERNS: readonly RegExp[] = [...REFUSAL_PATTERNS, ...HANDBACK_PATTERNS];

export function isDeflection(text: string): boolean {
  const full = normalizeForAnalysis(text);
  const prose = normalizeForAnalysis(withoutCode(text));
  if (prose === '') return false;
  if (REFUSAL_PATTERNS.some((p) => p.test(prose))) return true;
  if (isCompletionSummary(text)) return false;
  if (HANDBACK_PATTERNS.some((p) => p.test(prose))) return true;
  return handsBackHeuristic(full, prose);
}

/**
 * Catches hand-backs the patterns miss: a short reply that gives the user commands to run, or ends by
 * asking the user something, with no sign the model did anything itself. Two signals are needed.
 */
function handsBackHeuristic(full: string, prose: string): boolean {
  let score = 0;
  if (/```(?:bash|sh|shell|console|zsh|powershell|ps1|cmd|bat)?\s*\n\s*\$?\s*(?:mv|cp|rm|mkdir|git|npm|npx|yarn|pnpm|pip|python|node|cd|sed|echo|cat|touch|chmod|ls|cargo|go|make|dotnet)\b/i.test(full)) score++;
  if (/\?\s*$/.test(prose)) score++;
  if (/\byou(?:'ll|'d)?\s+(?:can|could|should|need|might|may|want)\b|\byour\b/i.test(prose)) score++;
  if (/\b(?:run|execute|type|paste|open)\b[^.?!]*\b(?:following|this|these|command|script)\b/i.test(prose)) score++;
  if (/\bI(?:'ve| have)\s+\w+ed\b|\bI\s+(?:read|ran|found|wrote|made)\b/i.test(prose)) score -= 2;
  return score >= 2 && prose.length < 1500;
}
