// Settings of the context window manager (budget, compression, calibration), validated with zod.
import { z } from 'zod';
import { parseSettings } from '../analysis/policyConfig';

const fraction = z.number().gt(0).lt(1);

export const contextSettingsSchema = z
  .strictObject({
    /** Compress when the request would fill this share of the window. */
    compressAt: fraction.default(0.7),
    /**
     * In a window of at most this many tokens, compression starts only where the answer's room begins (not at
     * compressAt): there every round the share wastes is one compression more (answerReserve.ts).
     */
    tightWindow: z.number().int().min(0).max(1_000_000).default(4096),
    /** Compression aims for at most this share of the window. */
    compressTo: fraction.default(0.4),
    /**
     * Tokens that must stay free for the answer; below that, compress first or stop with a clear message. Unset:
     * the room follows the largest reply seen, from 512 to 1,500 tokens (answerReserve.ts).
     */
    minAnswerTokens: z.number().int().min(0).max(1_000_000).optional(),
    /** The last N user/assistant pairs are never compressed or evicted. */
    protectedPairs: z.number().int().min(0).max(100).default(5),
    /** Run the LLM compression pass before the deterministic fallback. */
    llmCompression: z.boolean().default(true),
    maxCompressionIterations: z.number().int().min(1).max(50).default(15),
    compressionTemperature: z.number().min(0).max(2).default(0.3),
    /** Rough size the compression agent may give a user message. */
    userSummaryTokens: z.number().int().min(10).max(2000).default(50),
    assistantSummaryTokens: z.number().int().min(10).max(4000).default(200),
    /** The fallback keeps the last N rounds whole while that is enough. */
    fallbackKeepRounds: z.number().int().min(0).max(1000).default(10),
    /**
     * Compressed tool results become digests (every listed name, every search hit, exit codes, change outcomes);
     * a result no digest rule understands (an unknown tool's) keeps this many characters of its head.
     */
    fallbackToolResultChars: z.number().int().min(0).max(100_000).default(200),
    /** Tools whose results are never compressed (they can still be evicted as a whole when the window is full). */
    neverCompressTools: z.array(z.string().min(1)).default([]),
    /** The session summary may use at most this share of the window. */
    summaryMaxShare: fraction.default(0.1),
    /** Weight of each new server count in the calibration's moving average (higher tracks a changing mix of prose and code faster). */
    calibrationAlpha: z.number().gt(0).max(1).default(0.3),
    /** The server counting fewer than this share of our estimate means it probably cut the prompt. */
    truncationRatio: fraction.default(0.7),
    /** Below this share a count is suspect: two in a row whose shortfall grows with the prompt mean a cut. */
    truncationSuspectRatio: fraction.default(0.9),
    /** The LLM compression pass may spend at most this share of the session's model calls (and never more per turn than the turn's own). */
    compressionCallShare: z.number().gt(0).max(1).default(0.5),
    /** After a pass missed its target, wait until the history grew by this share of the window before trying the LLM again. */
    compressionRetryGrowth: fraction.default(0.25),
    /** …but only when we expected at least this many tokens (small prompts are too noisy to judge). */
    truncationMinTokens: z.number().int().min(0).default(1000),
  })
  .refine((s) => s.compressTo < s.compressAt, { message: 'compressTo must be below compressAt', path: ['compressTo'] });

export type ContextSettings = z.output<typeof contextSettingsSchema>;
export type ContextSettingsInput = z.input<typeof contextSettingsSchema>;

export function parseContextSettings(input: unknown): ContextSettings {
  return parseSettings(contextSettingsSchema, input, 'context settings');
}
