// The executor's tools for a whole planned run, chosen once: every step request then carries the same definitions
// in the same order, so the server's prompt cache holds across steps (a per-step choice changed the prompt's start
// with every step). The pre-filter ranks for the request and all the goals, and keeps every tool a step names.
import type { ToolDefinition } from '../messages';
import type { Plan } from './planRequest';

/** The pre-filter as the orchestrator uses it (structurally the ToolSelector). */
export interface StepToolFilter {
  select(input: {
    definitions: readonly ToolDefinition[];
    query: string;
    keep: ReadonlySet<string>;
    window: number;
    signal: AbortSignal;
  }): Promise<{ tools: ToolDefinition[] }>;
}

export async function selectRunTools(
  request: string,
  plan: Plan,
  tools: readonly ToolDefinition[],
  filter: StepToolFilter | undefined,
  window: number,
  signal: AbortSignal,
): Promise<ToolDefinition[]> {
  if (!filter) return [...tools];
  const names = new Set(tools.map((t) => t.name));
  const keep = new Set(plan.steps.map((s) => s.toolHint ?? '').filter((hint) => names.has(hint)));
  const query = [request, ...plan.steps.map((s) => [s.goal, s.toolHint ?? ''].join(' '))].join('\n');
  const selection = await filter.select({ definitions: tools, query, keep, window, signal });
  return selection.tools;
}
