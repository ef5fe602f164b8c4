// Settings for the response policy: caps and the exact texts sent to the model. Validated with zod.
import { z } from 'zod';

const count = (fallback: number) => z.number().int().min(0).max(50).default(fallback);
const text = (fallback: string) => z.string().trim().min(1).default(fallback);

export const DEFAULT_POLICY_MESSAGES = {
  continuation: 'You stopped before finishing. Continue with the remaining work now, using the tools. When everything is done, reply with a short summary of what you changed.',
  deflection:
    'You do have access: the tools you were given run in the user\'s workspace. Use the tools; do not ask the user and do not explain how to do it. Continue executing the task now.',
  empty: 'Your last reply was empty. Continue the task: call the next tool, or if the task is finished, reply with a short summary of what you did.',
  summary:
    'Do not call any tools now. Reply in plain text with a short summary of what you did in this task, what is left undone, and why.',
  completionReminder:
    'If the task is finished, call the task_completion tool with a summary of what you did. If work remains, continue with the tools.',
  noAnswer:
    'The model returned no answer, even when asked for a summary. The tool results above show what was done; try again, or try a different model.',
} as const;

export const responsePolicyConfigSchema = z.strictObject({
  /** Continuation nudges per turn when a reply says work remains. */
  maxContinuationNudges: count(3),
  /** Retries per turn when the model refuses or hands the work back; then its reply is accepted. */
  maxDeflectionRetries: count(3),
  /** Retries per turn after an empty reply, before the final summary request. */
  maxEmptyRetries: count(2),
  /** After the empty retries, one last request without tools asking for a summary. */
  summaryAfterEmpty: z.boolean().default(true),
  /** Reminders per turn to call the completion tool when the model answers in plain text. */
  maxCompletionReminders: count(2),
  /** The loop-breaking tool that ends a task; reminders are sent only when it is offered. */
  completionToolName: z.string().trim().min(1).default('task_completion'),
  messages: z
    .strictObject({
      continuation: text(DEFAULT_POLICY_MESSAGES.continuation),
      deflection: text(DEFAULT_POLICY_MESSAGES.deflection),
      empty: text(DEFAULT_POLICY_MESSAGES.empty),
      summary: text(DEFAULT_POLICY_MESSAGES.summary),
      completionReminder: text(DEFAULT_POLICY_MESSAGES.completionReminder),
      noAnswer: text(DEFAULT_POLICY_MESSAGES.noAnswer),
    })
    .prefault({}),
});

export type ResponsePolicyConfig = z.output<typeof responsePolicyConfigSchema>;
export type ResponsePolicyConfigInput = z.input<typeof responsePolicyConfigSchema>;

/** Parse settings, throwing an Error whose message names every bad field and what it expects. */
export function parseSettings<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    return `${where}: ${issue.message}`;
  });
  throw new Error(`Invalid ${what}: ${problems.join('; ')}.`);
}

export function parseResponsePolicyConfig(input: unknown): ResponsePolicyConfig {
  return parseSettings(responsePolicyConfigSchema, input, 'response policy settings');
}
