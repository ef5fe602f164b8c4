// All settings of the weak-model helpers in one zod schema, with defaults. Unknown keys are errors.
import { z } from 'zod';
import { parseSettings, responsePolicyConfigSchema } from '../analysis/policyConfig';
import { toolProtocolSettingSchema } from '../toolProtocol/protocolSetting';

export const retrySettingsSchema = z.strictObject({
  /** Retries per model after the first attempt, for retryable failures (HTTP 5xx, broken stream). */
  maxRetries: z.number().int().min(0).max(10).default(2),
  backoffBaseMs: z.number().int().min(0).max(60_000).default(1000),
  backoffMaxMs: z.number().int().min(0).max(300_000).default(8000),
});

export const turnHooksSettingsSchema = z.strictObject({
  /** native: the API's tool calling; xml: `<tool>` blocks in text; auto: native when the model supports tools. */
  toolProtocol: toolProtocolSettingSchema.default('auto'),
  policy: responsePolicyConfigSchema.prefault({}),
  retry: retrySettingsSchema.prefault({}),
  /** Identical calls in a row that earn a warning; one more stops the turn. */
  repetitionThreshold: z.number().int().min(2).max(20).default(3),
  /** Corrections per turn for unreadable `<tool>` blocks when no call in the reply could run. */
  maxToolFormatCorrections: z.number().int().min(0).max(50).default(5),
  /** Run tool calls the model printed as JSON text, when they name an offered tool with valid arguments. */
  recoverJsonToolCalls: z.boolean().default(true),
});

export type TurnHooksSettings = z.output<typeof turnHooksSettingsSchema>;
export type TurnHooksSettingsInput = z.input<typeof turnHooksSettingsSchema>;

export function parseTurnHooksSettings(input: unknown): TurnHooksSettings {
  return parseSettings(turnHooksSettingsSchema, input, 'agent settings');
}
