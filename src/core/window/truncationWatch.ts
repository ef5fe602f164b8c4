// Notices a server that silently cuts the prompt: it counts clearly fewer prompt tokens than we sent.
// Warns once per session, with the fix for the server at hand.
import { formatCount } from '../../shared/format';

export interface TruncationCheck {
  /** Calibrated estimate of what we sent. */
  expected: number;
  /** What the server says it counted. */
  reported: number;
  window: number;
  providerId: string;
}

export class TruncationWatch {
  private warned = false;

  constructor(private readonly options: { ratio: number; minTokens: number }) {}

  /** True when this count looks like a cut prompt (such a count must not feed calibration). */
  suspicious(check: TruncationCheck): boolean {
    return check.expected >= this.options.minTokens && check.reported < check.expected * this.options.ratio;
  }

  /** The warning, the first time a count looks cut; undefined otherwise. */
  check(check: TruncationCheck): string | undefined {
    if (!this.suspicious(check) || this.warned) return undefined;
    this.warned = true;
    return truncationWarning(check);
  }
}

export function truncationWarning(c: TruncationCheck): string {
  const fmt = formatCount;
  const fix =
    c.providerId === 'ollama'
      ? `Fix: raise the context size sent to Ollama (num_ctx) or lower it to what the model and your memory allow, so both sides agree; a Modelfile or OLLAMA_CONTEXT_LENGTH setting can also cap it.`
      : `Fix: reload the model with a larger context length (LM Studio: "Context Length" when loading; llama.cpp: --ctx-size; vLLM: --max-model-len), or set the configured context size to what the server really runs.`;
  return (
    `The server counted ${fmt(c.reported)} prompt tokens, but we sent about ${fmt(c.expected)} (budgeting for a ${fmt(c.window)}-token window). ` +
    `It is probably cutting the prompt because it runs a smaller context than that, so the model may not see the start of the conversation or its instructions. ${fix}`
  );
}
