// The checkpoint size bound as users set it: `localharness.checkpoints.maxSizeMB` in the editor, `{"checkpoints":
// {"maxSizeMB": N}}` in the CLI's --config file. Megabytes of stored file contents, all sessions of a database together.

export const DEFAULT_CHECKPOINT_MB = 50;
const MAX_CHECKPOINT_MB = 2048;

/** Bytes the checkpoints may hold; throws a sentence naming the bad value. */
export function checkpointLimitBytes(input: unknown): number {
  if (input === undefined || input === null) return DEFAULT_CHECKPOINT_MB * 1024 * 1024;
  const { maxSizeMB = DEFAULT_CHECKPOINT_MB, ...rest } = typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { maxSizeMB: Symbol('bad') };
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new Error(`unknown checkpoint setting(s) ${unknown.join(', ')} (use maxSizeMB)`);
  if (typeof maxSizeMB !== 'number' || !Number.isFinite(maxSizeMB) || maxSizeMB < 1 || maxSizeMB > MAX_CHECKPOINT_MB) {
    throw new Error(`checkpoints.maxSizeMB must be a number of megabytes from 1 to ${MAX_CHECKPOINT_MB}, got ${typeof maxSizeMB === 'symbol' ? JSON.stringify(input) : String(maxSizeMB)}`);
  }
  return Math.round(maxSizeMB * 1024 * 1024);
}
