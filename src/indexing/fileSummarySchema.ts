// The model's answer to "summarize this file", validated. Lenient where weak models are clumsy (numbers as strings,
// extra fields, a nameless entity, a relation kind outside the list, a missing list), strict where it matters: the
// file summary must be there. The JSON Schema sent to the server is the strict output side (see responseJsonSchema).
import { z } from 'zod';
import { RELATION_KINDS, type RelationKind } from '../core/knowledge/types';

/** "12", " 12 ", "L12", "line 12", "12-20" → 12; anything else is left for the schema to reject. */
export function readLineNumber(value: unknown): unknown {
  if (typeof value === 'string') {
    const m = /^\s*(?:line\s*|L)?(\d+)/i.exec(value);
    return m ? Number(m[1]) : value;
  }
  return value;
}

const lineNumber = z.preprocess(readLineNumber, z.number().int().min(1));

/** An optional line that cannot be read is dropped rather than failing the reply. */
const optionalLine = z.preprocess((value) => {
  const n = readLineNumber(value);
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined;
}, z.number().int().min(1).optional());

const SYNONYMS: Record<string, RelationKind> = {
  call: 'calls',
  invokes: 'calls',
  invoke: 'calls',
  import: 'imports',
  requires: 'imports',
  define: 'defines',
  declares: 'defines',
  contains: 'defines',
  use: 'uses',
  reads: 'uses',
  extend: 'extends',
  inherits: 'extends',
  implement: 'implements',
  reference: 'references',
  refers: 'references',
};

/** A relation kind from the model → one of RELATION_KINDS; what cannot be placed becomes 'references'. */
export function relationKindOf(value: unknown): RelationKind {
  if (typeof value !== 'string') return 'references';
  const key = value.trim().toLowerCase().replace(/[\s_-]+/g, '');
  if ((RELATION_KINDS as readonly string[]).includes(key)) return key as RelationKind;
  return SYNONYMS[key] ?? 'references';
}

/**
 * A list where entries without their key fields are dropped (a weak model's placeholders), a lone object counts
 * as a one-item list, and a missing list is empty.
 */
function lenientList<T extends z.ZodType>(item: T, keep: (entry: Record<string, unknown>) => boolean) {
  return z.preprocess((value) => {
    if (value === undefined || value === null) return [];
    const list = Array.isArray(value) ? value : isRecord(value) ? [value] : value;
    return Array.isArray(list) ? list.filter((entry) => !isRecord(entry) || keep(entry)) : list;
  }, z.array(item));
}

const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** A position the reply may leave out or garble: -1 ("not given") rather than a failed reply. */
const position = z.preprocess((value) => {
  const n = readLineNumber(value);
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : -1;
}, z.number().int().min(-1));

/**
 * One chunk's summary. `chunk` is its number as the prompt shows it (from 1) and `start_line` the first line of its
 * span, which no numbering slip can change; both are checked against the code (summaryAlignment.ts). What the
 * server is asked for says "from 1" (the prompt's numbering); a 0 still parses (a model counting from 0), and a
 * missing or unreadable one is -1, "not given".
 */
const chunkSummary = z.preprocess(
  (value) => (isRecord(value) ? renameKeys(value, { index: 'chunk', number: 'chunk', id: 'chunk', startLine: 'start_line', first_line: 'start_line', line: 'start_line', lines: 'start_line' }) : value),
  z.object({
    chunk: position.meta({ minimum: 1, description: 'The chunk number as shown: "Chunk N of M", counted from 1.' }),
    start_line: position.meta({ minimum: 1, description: 'The first line number of the chunk, as in its header "lines A-B".' }),
    summary: z.string().trim().min(1),
  }),
);

const entity = z.object({
  name: z.string().trim().min(1),
  kind: z.preprocess((v) => (hasText(v) ? String(v).trim() : 'symbol'), z.string()),
  line: lineNumber,
});

const relation = z.object({
  from: z.string().trim().min(1),
  kind: z.preprocess(relationKindOf, z.enum(RELATION_KINDS as unknown as [RelationKind, ...RelationKind[]])),
  to: z.string().trim().min(1),
  line: optionalLine,
});

export const FILE_SUMMARY_REPLY = z.object({
  summary: z.string().trim().min(1, 'the file summary must not be empty'),
  chunks: lenientList(chunkSummary, (c) => hasText(c.summary)),
  entities: lenientList(entity, (e) => hasText(e.name)),
  relations: lenientList(relation, (r) => hasText(r.from) && hasText(r.to)),
});

export type FileSummaryReply = z.infer<typeof FILE_SUMMARY_REPLY>;

/** Keys some models use for a field, renamed when the field itself is missing. */
function renameKeys(value: Record<string, unknown>, aliases: Record<string, string>): Record<string, unknown> {
  const out = { ...value };
  for (const [from, to] of Object.entries(aliases)) if (out[to] === undefined && out[from] !== undefined) out[to] = out[from];
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
