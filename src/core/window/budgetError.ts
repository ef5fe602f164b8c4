// Thrown before a model call that cannot fit: the turn ends with this message instead of sending a request
// the server would silently cut.
import { formatCount } from '../../shared/format';
import type { PromptMeasure } from './meter';

export interface BudgetDetails {
  window: number;
  used: number;
  systemTokens: number;
  toolDefinitionTokens: number;
  minAnswerTokens: number;
}

export class ContextBudgetError extends Error {
  constructor(
    message: string,
    readonly details: BudgetDetails,
  ) {
    super(message);
    this.name = 'ContextBudgetError';
  }
}

/**
 * The error for a request `m` (calibrated by `factor`) that leaves less than `need` tokens of `window` for the answer:
 * what takes the room, and what to do.
 */
export function budgetError(m: PromptMeasure, window: number, factor: number, need: number, protectedPairs: number): ContextBudgetError {
  const fmt = formatCount;
  const system = Math.ceil(m.systemTokens * factor);
  const tools = Math.ceil(m.toolDefinitionTokens * factor);
  const conversation = Math.max(0, m.total - system - tools);
  const parts = `system prompt ${fmt(system)}, tool definitions ${fmt(tools)}, conversation ${fmt(conversation)}`;
  let cause: string;
  if (window - system - tools < need) {
    cause = `The system prompt (${fmt(system)} tokens) and tool definitions (${fmt(tools)}) alone leave less than ${fmt(need)} of the ${fmt(window)}-token window for the answer.`;
  } else {
    const room = m.total > window ? `more than the ${fmt(window)}-token window` : `of the ${fmt(window)}-token window, leaving ${fmt(window - m.total)} for the answer where at least ${fmt(need)} are needed`;
    cause = `The request needs about ${fmt(m.total)} tokens (${parts}), ${room}; compression could not free more without touching the last ${protectedPairs} exchanges.`;
  }
  return new ContextBudgetError(
    `Stopped before calling the model: the context window is full. ${cause} Start a new session, give the model a larger context window, or offer fewer tools.`,
    { window, used: m.total, systemTokens: system, toolDefinitionTokens: tools, minAnswerTokens: need },
  );
}
