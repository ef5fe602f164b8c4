// Settings of the tool pre-filter, validated with zod.
import { z } from 'zod';
import { parseSettings } from '../../analysis/policyConfig';

export const DEFAULT_ALWAYS_OFFERED = ['task_completion', 'ask_question', 'tool_search'] as const;

export const toolSelectionSettingsSchema = z.strictObject({
  /** Filter when more tools than this are offered; then offer this many (always-offered ones included where they fit). */
  maxOffered: z.number().int().min(1).max(1000).default(15),
  /** Filter when the tool definitions would take more than this share of the context window. */
  maxShare: z.number().gt(0).max(1).default(0.25),
  /** Tools offered on every request, whatever the ranking says (names that are not registered are ignored). */
  alwaysOffer: z.array(z.string().trim().min(1)).default([...DEFAULT_ALWAYS_OFFERED]),
});

export type ToolSelectionSettings = z.output<typeof toolSelectionSettingsSchema>;
export type ToolSelectionSettingsInput = z.input<typeof toolSelectionSettingsSchema>;

export function parseToolSelectionSettings(input: unknown): ToolSelectionSettings {
  return parseSettings(toolSelectionSettingsSchema, input, 'tool selection settings');
}
