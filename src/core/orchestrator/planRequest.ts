// The planner's one request: the user's task in, a short list of steps out, as structured output (no tools).
// The schema is lenient where weak models are clumsy (numeric ids, a single depends_on, camelCase keys, extra
// fields) and strict where a plan would be useless (no steps, a step without a goal, more steps than allowed).
import { z } from 'zod';
import type { ChatMessage, ToolDefinition } from '../messages';
import type { ChatProvider } from '../provider';
import { structuredCall } from '../structured';
import { standaloneRequest } from '../prompt/requestLayout';

export interface PlanStep {
  id: string;
  goal: string;
  /** The tool the planner expects; "none" marks a step that needs no tool. */
  toolHint?: string;
  /** Ids of earlier steps whose results this step needs. */
  dependsOn: string[];
}

export interface Plan {
  steps: PlanStep[];
  doneWhen: string;
}

/** What a finished step hands to later steps and the synthesis. */
export interface StepRecord {
  step: PlanStep;
  status: 'ok' | 'failed' | 'skipped';
  summary: string;
  /** The step's tool results and final words, clipped. */
  result: string;
}

export const DEFAULT_MAX_STEPS = 12;

const idValue = z.preprocess((v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v), z.string().min(1));

/** "2", 2, ["1", 2], null → ["2"] … (preprocess only: the JSON Schema sent to the server stays exact). */
const dependsValue = z.preprocess(
  (v) => (v === null || v === undefined || v === '' ? [] : (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'number' ? String(x) : typeof x === 'string' ? x.trim() : x))),
  z.array(z.string()),
);

const optionalText = z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), z.string().optional());

/** camelCase keys some models prefer, renamed before validation. */
function snakeKeys(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = { ...(v as Record<string, unknown>) };
  for (const [from, to] of [['dependsOn', 'depends_on'], ['toolHint', 'tool_hint'], ['doneWhen', 'done_when'], ['tool', 'tool_hint'], ['step', 'id']] as const) {
    if (o[to] === undefined && o[from] !== undefined) o[to] = o[from];
  }
  return o;
}

const stepSchema = z.preprocess(
  snakeKeys,
  z.object({
    id: idValue.optional(),
    goal: z.string().trim().min(1, 'each step needs a goal'),
    tool_hint: optionalText,
    depends_on: dependsValue.optional(),
  }),
);

/** Validates the planner's reply; normalisePlan turns what it accepts into a Plan. */
export function planSchema(maxSteps: number = DEFAULT_MAX_STEPS) {
  return z.preprocess(
    snakeKeys,
    z.object({
      steps: z.array(stepSchema).min(1, 'the plan needs at least one step').max(maxSteps, `at most ${maxSteps} steps: merge small steps`),
      done_when: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string()),
    }),
  );
}

export type RawPlan = z.output<ReturnType<typeof planSchema>>;

/** Validates and normalises a reply value (for tests and callers that already hold JSON). */
export function parsePlan(value: unknown, maxSteps: number = DEFAULT_MAX_STEPS): { ok: true; plan: Plan } | { ok: false; error: z.ZodError } {
  const result = planSchema(maxSteps).safeParse(value);
  return result.success ? { ok: true, plan: normalisePlan(result.data) } : { ok: false, error: result.error };
}

/** Ids made unique (a missing one is the step's number), dependencies only on earlier steps that exist. */
export function normalisePlan(raw: RawPlan): Plan {
  const seen = new Set<string>();
  const steps: PlanStep[] = raw.steps.map((s, i) => {
    let id = s.id ?? String(i + 1);
    if (seen.has(id)) id = `${id}.${i + 1}`;
    const earlier = new Set(seen);
    seen.add(id);
    return {
      id,
      goal: s.goal,
      ...(s.tool_hint !== undefined && { toolHint: s.tool_hint.trim() }),
      dependsOn: [...new Set(s.depends_on ?? [])].filter((d) => earlier.has(d)),
    };
  });
  return { steps, doneWhen: raw.done_when.trim() };
}

/** A step the planner marked as needing no tool. */
export function needsTool(step: PlanStep): boolean {
  return !step.toolHint || !/^(none|no tool|n\/a|-)$/i.test(step.toolHint);
}

export interface PlanInput {
  provider: ChatProvider;
  model: string;
  request: string;
  /** Earlier turns of the conversation, digested (text only). */
  conversation: string;
  hotContext: string;
  tools: readonly ToolDefinition[];
  maxSteps: number;
  signal: AbortSignal;
  contextSize?: number;
  think?: boolean;
}

/** Throws StructuredOutputError after two unusable replies; ProviderError passes through. */
export async function makePlan(input: PlanInput): Promise<{ plan: Plan; attempts: number }> {
  const result = await structuredCall({
    provider: input.provider,
    model: input.model,
    name: 'plan',
    schema: planSchema(input.maxSteps),
    messages: planMessages(input),
    signal: input.signal,
    temperature: 0,
    ...(input.contextSize !== undefined && { contextSize: input.contextSize }),
    ...(input.think !== undefined && { think: input.think }),
  });
  return { plan: normalisePlan(result.value), attempts: result.attempts };
}

export function planMessages(input: Pick<PlanInput, 'request' | 'conversation' | 'hotContext' | 'tools' | 'maxSteps'>): ChatMessage[] {
  const tools = input.tools.map((t) => `- ${t.name}: ${firstSentence(t.description)}`).join('\n');
  const system = [
    'You are the planner of a coding agent. Break the user\'s request into short steps. A small, fast model carries out',
    'each step on its own with the tools below, seeing only that step\'s goal and the results of the steps it depends on,',
    'so each goal must be complete in itself: name the exact files, paths and text involved, in one short sentence.',
    `Use at most ${input.maxSteps} steps; one tool action per step where possible. Set tool_hint to the tool the step needs`,
    '("none" when it needs no tool), depends_on to the ids of earlier steps whose results it needs, and done_when to how',
    'to tell the whole request is done.',
    'Reply with only a JSON object: {"steps": [{"id": "1", "goal": "...", "tool_hint": "...", "depends_on": []}], "done_when": "..."}',
    '',
    'Tools:',
    tools,
    ...(input.hotContext ? ['', input.hotContext] : []),
  ].join('\n');
  const user = input.conversation ? `Conversation so far:\n${input.conversation}\n\nRequest: ${input.request}` : input.request;
  return standaloneRequest(system, user);
}

function firstSentence(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  const end = line.search(/\.\s/);
  return (end > 0 ? line.slice(0, end + 1) : line).slice(0, 160);
}
