// Reading untyped JSON from model servers: each field is checked where it is read, and a value of the wrong shape
// counts as absent (servers differ, and some leave fields out or send null).

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** A finite number above 0 (a context length, a token count), else undefined. */
export function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A finite number of at least 0 (a duration), else undefined. */
export function nonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
