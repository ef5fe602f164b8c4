// The system prompt is built from named parts with priorities; when the budget is tight the lowest go first.
import { estimateTokens } from '../tokens';

export interface PromptPart {
  name: string;
  /** Higher survives longer. Required parts (base instructions) use Infinity. */
  priority: number;
  text: string;
}

export interface AssembledPrompt {
  text: string;
  included: string[];
  dropped: string[];
  tokens: number;
}

export function assemblePrompt(parts: readonly PromptPart[], budgetTokens = Infinity, count = estimateTokens): AssembledPrompt {
  const nonEmpty = parts.filter((p) => p.text.trim() !== '');
  const kept = new Set(nonEmpty);
  const dropped: string[] = [];
  const total = () => [...kept].reduce((n, p) => n + count(p.text) + 1, 0);
  const byPriority = [...nonEmpty].sort((a, b) => a.priority - b.priority);
  for (const part of byPriority) {
    if (total() <= budgetTokens) break;
    if (part.priority === Infinity) break;
    kept.delete(part);
    dropped.push(part.name);
  }
  const ordered = nonEmpty.filter((p) => kept.has(p));
  const text = ordered.map((p) => p.text.trim()).join('\n\n');
  return { text, included: ordered.map((p) => p.name), dropped, tokens: count(text) };
}
