// The JSON Schema sent with a structured request, derived from the zod schema that validates the reply.
import { z } from 'zod';

const cache = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * zod v4's JSON-Schema export of what the caller finally wants (`io: 'output'`: the shape after coercions, so a
 * lenient `preprocess` still asks for an integer), without the noise that costs tokens: `$schema`, and the
 * ±2^53 bounds zod adds to every `.int()`. Parts JSON Schema cannot express become `{}` instead of throwing.
 */
export function responseJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let out = cache.get(schema);
  if (!out) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    out = withoutSafeIntegerBounds(rest) as Record<string, unknown>;
    cache.set(schema, out);
  }
  return out;
}

function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}
