// Shrinks tool definitions to a token budget, losing the least useful words first: schema noise ($schema,
// titles, examples), then parameter descriptions (first sentence, then none), then tool descriptions (first
// sentence, then a short cut). Names, types, enums, required lists and parameters themselves are never
// touched, so every call that was valid before stays valid. The biggest tools are shortened first.
import type { ToolDefinition } from '../../messages';
import { estimateToolDefinitionTokens } from '../../tokens';

type Schema = Record<string, unknown>;
type NodeEdit = (node: Schema) => Schema;
type Stage = (def: ToolDefinition) => ToolDefinition;

/** Keys whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keys whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keys whose value is one schema (or, for items, possibly a list). */
const SCHEMA_SINGLES = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);
/** Annotations the model does not need to call a tool right. */
const NOISE = ['$schema', '$comment', 'title', 'examples'];

const STAGES: readonly Stage[] = [
  editParameters((node) => omit(node, NOISE)),
  editParameters((node) => withDescription(node, 100)),
  editParameters((node) => omit(node, ['description'])),
  (def) => shortenDescription(def, 200),
  (def) => shortenDescription(def, 80),
];

/**
 * Definitions that fit `budgetTokens` if shortening can make them fit (otherwise as short as this gets).
 * Definitions already within the budget come back unchanged; the input is never modified.
 */
export function compactToolDefinitions(defs: readonly ToolDefinition[], budgetTokens: number): ToolDefinition[] {
  const current = [...defs];
  if (estimateToolDefinitionTokens(current) <= budgetTokens) return current;
  // Per-tool estimates add up to at least the estimate of all together, so "sum within budget" is safe.
  const tokens = current.map((d) => estimateToolDefinitionTokens([d]));
  let sum = tokens.reduce((a, b) => a + b, 0);
  for (const stage of STAGES) {
    const biggestFirst = current.map((_, i) => i).sort((a, b) => tokens[b]! - tokens[a]! || a - b);
    for (const i of biggestFirst) {
      const next = stage(current[i]!);
      if (next === current[i]) continue;
      const t = estimateToolDefinitionTokens([next]);
      if (t >= tokens[i]!) continue; // nothing gained: keep the original wording
      current[i] = next;
      sum += t - tokens[i]!;
      tokens[i] = t;
      if (sum <= budgetTokens) return current;
    }
    if (estimateToolDefinitionTokens(current) <= budgetTokens) return current;
  }
  return current;
}

/** The first sentence of `text` (at least 20 characters, so "e.g." does not end it), cut at a word to `maxChars`. */
export function firstSentence(text: string, maxChars: number): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  const match = /^(.{20,}?[.!?])(?:\s|$)/.exec(flat);
  let out = match ? match[1]! : flat;
  if (out.length > maxChars) {
    const cut = out.slice(0, maxChars - 1);
    const space = cut.lastIndexOf(' ');
    out = `${(space > maxChars / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
  }
  return out;
}

function shortenDescription(def: ToolDefinition, maxChars: number): ToolDefinition {
  const description = firstSentence(def.description, maxChars);
  return description === def.description ? def : { ...def, description };
}

function withDescription(node: Schema, maxChars: number): Schema {
  if (typeof node.description !== 'string') return node;
  const description = firstSentence(node.description, maxChars);
  return description === node.description ? node : { ...node, description };
}

/** A stage that applies `edit` to every schema node of the parameters (the root included). */
function editParameters(edit: NodeEdit): Stage {
  return (def) => {
    const parameters = walk(def.parameters, edit);
    return parameters === def.parameters ? def : { ...def, parameters };
  };
}

/** Applies `edit` bottom-up; returns the same object when nothing changed (so unchanged tools stay identical). */
function walk(node: Schema, edit: NodeEdit): Schema {
  let changed = false;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    let next = value;
    if (SCHEMA_MAPS.has(key) && isSchema(value)) next = mapValues(value, (v) => (isSchema(v) ? walk(v, edit) : v));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) next = mapList(value, (v) => (isSchema(v) ? walk(v, edit) : v));
    else if (SCHEMA_SINGLES.has(key) && Array.isArray(value)) next = mapList(value, (v) => (isSchema(v) ? walk(v, edit) : v));
    else if (SCHEMA_SINGLES.has(key) && isSchema(value)) next = walk(value, edit);
    if (next !== value) changed = true;
    out[key] = next;
  }
  const base = changed ? out : node;
  return edit(base);
}

function mapValues(map: Schema, fn: (v: unknown) => unknown): Schema {
  let changed = false;
  const out: Schema = {};
  for (const [k, v] of Object.entries(map)) {
    const next = fn(v);
    if (next !== v) changed = true;
    out[k] = next;
  }
  return changed ? out : map;
}

function mapList(list: unknown[], fn: (v: unknown) => unknown): unknown[] {
  const out = list.map(fn);
  return out.some((v, i) => v !== list[i]) ? out : list;
}

function omit(node: Schema, keys: readonly string[]): Schema {
  if (!keys.some((k) => k in node)) return node;
  const out = { ...node };
  for (const k of keys) delete out[k];
  return out;
}

function isSchema(value: unknown): value is Schema {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
