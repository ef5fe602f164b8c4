// The window: what the model supports, what the server runs now, what Local Harness will budget. A server running
// less than it was asked for (Ollama's num_ctx, the context size setting) or than the model supports is named with
// the fix; a smaller window found is what the next session budgets from its first request.
import type { ChatProvider } from '../provider';
import type { ContextWindow } from '../window/window';
import { fixFor } from '../window/workingWindow';
import { formatCount } from '../../shared/format';
import type { WindowFinding } from './report';

/** Below this the agent's instructions and tools (~1,300 tokens) leave no room to work. */
export const MIN_USABLE_WINDOW = 2048;
/** Below this a task is compressed after every few steps. */
export const SMALL_WINDOW = 4096;

export interface WindowInputs {
  providerId: ChatProvider['id'];
  /** "Ollama", "LM Studio", … */
  label: string;
  model: string;
  modelMax?: number;
  /** The context size setting (localharness.contextSize, --num-ctx), when set. */
  configured?: number;
  /** The window a session starts from (before any correction): src/core/window/window.ts. */
  base: ContextWindow;
  /** What the server says it runs now. */
  running?: number;
  /** A smaller window an earlier session found (the working window's memory), if any. */
  remembered?: { tokens: number; base: number };
}

/** `remember`: what the working window's memory for this server and model should hold after the check. */
export function windowFinding(input: WindowInputs): WindowFinding & { remember?: { tokens: number; base: number } | 'forget' } {
  const { base, running, modelMax, configured, label, model } = input;
  const asked = base.tokens;
  const fmt = formatCount;
  const details: string[] = [];
  if (modelMax) details.push(`The model supports up to ${fmt(modelMax)} tokens.`);
  if (configured) details.push(`The context size setting asks for ${fmt(configured)}.`);
  const facts = { ...(modelMax !== undefined && { modelMax }), asked, ...(configured !== undefined && { configured }), ...(running !== undefined && { running }) };
  const ollama = input.providerId === 'ollama';
  let result: WindowFinding & { remember?: { tokens: number; base: number } | 'forget' };

  // What the server runs, held against what was asked (Ollama: num_ctx) or what the settings say (the others).
  const wanted = ollama ? asked : Math.max(asked, configured ?? 0);
  if (running !== undefined && running < wanted) {
    const why = ollama ? `the ${fmt(wanted)} Local Harness asks for (num_ctx${configured ? ', from the context size setting' : ''})` : `the ${fmt(wanted)} the context size setting says`;
    details.push(`Local Harness budgets ${fmt(running)} from the first request of every session (remembered for this server and model), so nothing is cut silently.`);
    result = {
      verdict: 'limited',
      ...facts,
      budget: running,
      summary: `${label} runs ${model} with ${fmt(running)} tokens of context, not ${why}.`,
      details,
      fix: fixFor(input.providerId, running, wanted),
      reason: `the server runs ${fmt(running)} tokens, not ${fmt(wanted)}`,
      ...(running < asked && { remember: { tokens: running, base: asked } }),
    };
  } else if (running !== undefined) {
    const forgotten = input.remembered && input.remembered.tokens < asked;
    if (forgotten) details.push(`An earlier session found a smaller window (${fmt(input.remembered!.tokens)}); the server now runs ${fmt(running)}, so that is forgotten.`);
    result = {
      verdict: 'ok',
      ...facts,
      budget: asked,
      summary: `${label} runs ${model} with ${fmt(running)} tokens of context; Local Harness budgets ${fmt(asked)}.`,
      details,
      ...(forgotten && { remember: 'forget' as const }),
    };
    if (modelMax && running < modelMax) {
      result.details.push(
        ollama
          ? `Local Harness asks Ollama for at most ${fmt(asked)} (memory); set the context size setting to ask for more.`
          : `${label} loaded it with less than the model supports: ${fixFor(input.providerId, running, modelMax).replace(/^Fix: /, '')}`,
      );
      if (!ollama) result.fix = fixFor(input.providerId, running, modelMax);
    }
  } else if (input.remembered && input.remembered.base === asked && input.remembered.tokens < asked) {
    const tokens = input.remembered.tokens;
    details.push('The server does not say what it runs now; the prompt counts of an earlier session showed it.');
    result = {
      verdict: 'limited',
      ...facts,
      budget: tokens,
      summary: `An earlier session found that ${label} runs ${model} with ${fmt(tokens)} tokens of context, not ${fmt(asked)}; Local Harness budgets ${fmt(tokens)}.`,
      details,
      fix: fixFor(input.providerId, tokens, asked),
      reason: `the server runs ${fmt(tokens)} tokens, not ${fmt(asked)}`,
    };
  } else {
    details.push('Local Harness watches the prompt counts of every request and shrinks the window if the server cuts prompts.');
    const sourceWords = base.source === 'num_ctx' ? 'the num_ctx it sends' : base.source === 'configured' ? 'the context size setting' : base.source === 'model_max' ? "the model's maximum" : 'a guess';
    result = {
      verdict: base.source === 'default' ? 'info' : 'ok',
      ...facts,
      budget: asked,
      summary: `${label} does not say what window it runs ${model} with; Local Harness budgets ${fmt(asked)} (${sourceWords}).`,
      details,
      ...(base.source === 'default' && base.note && { fix: base.note }),
    };
  }

  const budget = result.budget ?? asked;
  if (budget < MIN_USABLE_WINDOW) {
    result.verdict = 'failed';
    result.reason = `a ${fmt(budget)}-token window is too small for the agent`;
    result.details.push(`The agent's instructions and tool definitions take about 1,300 tokens: ${fmt(budget)} leaves no room to work.`);
    result.fix ??= biggerWindowFix(input, budget, 8192);
  } else if (budget < SMALL_WINDOW && result.verdict !== 'limited') {
    result.verdict = 'limited';
    result.reason = `a small window (${fmt(budget)} tokens)`;
    result.details.push('Tasks work, but the conversation is compressed after every few steps.');
    result.fix ??= biggerWindowFix(input, budget, 16384);
  }
  return result;
}

/** A window that is small because it was asked small (Ollama) or loaded small (the others). */
function biggerWindowFix(input: WindowInputs, budget: number, goal: number): string {
  if (input.providerId === 'ollama' && budget >= input.base.tokens) {
    return `Ask for more: set the context size (localharness.contextSize, CLI --num-ctx) to ${goal} or more, if the machine has the memory.`;
  }
  return fixFor(input.providerId, budget, goal);
}
