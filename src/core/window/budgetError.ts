// Thrown before a model call that cannot fit: the turn ends with this message instead of sending a request
// the server would silently cut.

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
