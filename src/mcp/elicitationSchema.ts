// Reads an elicitation's `requestedSchema` into form fields, and checks an answer against it before it is
// sent: a server gets valid data or none (an invalid answer becomes `cancel`).
import type { ElicitField } from './clientFeatures';

export type ElicitValue = string | number | boolean | string[];

export class ElicitationSchemaError extends Error {}

type Json = Record<string, unknown>;
type EnumOption = { value: string; label: string };

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/** The form fields, in the schema's order. Throws ElicitationSchemaError for what the MCP spec does not allow. */
export function parseElicitationSchema(schema: unknown): ElicitField[] {
  if (!isObject(schema)) throw new ElicitationSchemaError('requestedSchema is not an object');
  if (schema.type !== undefined && schema.type !== 'object') throw new ElicitationSchemaError(`requestedSchema has type "${String(schema.type)}", not "object"`);
  const properties = schema.properties ?? {};
  if (!isObject(properties)) throw new ElicitationSchemaError('requestedSchema.properties is not an object');
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  for (const name of required) {
    if (!(name in properties)) throw new ElicitationSchemaError(`requestedSchema requires "${name}", which it does not define`);
  }
  return Object.entries(properties).map(([name, property]) => parseField(name, property, required.has(name)));
}

function parseField(name: string, property: unknown, required: boolean): ElicitField {
  if (!isObject(property)) throw new ElicitationSchemaError(`field "${name}" is not a schema object`);
  const common = {
    name,
    required,
    ...(typeof property.title === 'string' && { title: property.title }),
    ...(typeof property.description === 'string' && { description: property.description }),
  };
  switch (property.type) {
    case 'string': {
      const options = enumOptions(property);
      if (options) {
        const fallback = typeof property.default === 'string' && options.some((o) => o.value === property.default) ? property.default : undefined;
        return { kind: 'enum', ...common, options, ...(fallback !== undefined && { default: fallback }) };
      }
      const format = property.format;
      if (format !== undefined && !FORMATS.includes(format as (typeof FORMATS)[number])) {
        throw new ElicitationSchemaError(`field "${name}" has the unsupported format "${String(format)}"`);
      }
      return {
        kind: 'string',
        ...common,
        ...(typeof property.default === 'string' && { default: property.default }),
        ...(isCount(property.minLength) && { minLength: property.minLength }),
        ...(isCount(property.maxLength) && { maxLength: property.maxLength }),
        ...(format !== undefined && { format: format as (typeof FORMATS)[number] }),
      };
    }
    case 'number':
    case 'integer':
      return {
        kind: 'number',
        ...common,
        integer: property.type === 'integer',
        ...(isFiniteNumber(property.default) && { default: property.default }),
        ...(isFiniteNumber(property.minimum) && { minimum: property.minimum }),
        ...(isFiniteNumber(property.maximum) && { maximum: property.maximum }),
      };
    case 'boolean':
      return { kind: 'boolean', ...common, ...(typeof property.default === 'boolean' && { default: property.default }) };
    case 'array': {
      const options = isObject(property.items) ? enumOptions(property.items) : undefined;
      if (!options) throw new ElicitationSchemaError(`field "${name}" is an array whose items are not an enum of strings`);
      const values = new Set(options.map((o) => o.value));
      const fallback = Array.isArray(property.default) && property.default.every((v) => typeof v === 'string' && values.has(v)) ? (property.default as string[]) : undefined;
      return {
        kind: 'multiEnum',
        ...common,
        options,
        ...(fallback && { default: fallback }),
        ...(isCount(property.minItems) && { minItems: property.minItems }),
        ...(isCount(property.maxItems) && { maxItems: property.maxItems }),
      };
    }
    default:
      throw new ElicitationSchemaError(`field "${name}" has the unsupported type "${String(property.type)}" (forms take string, number, integer, boolean and enums)`);
  }
}

/** `enum` (labels from the legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. Undefined when neither. */
function enumOptions(schema: Json): EnumOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const labels = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => {
      if (typeof value !== 'string') throw new ElicitationSchemaError(`enum value ${JSON.stringify(value)} is not a string`);
      return { value, label: typeof labels[i] === 'string' ? (labels[i] as string) : value };
    });
  }
  const choices = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!choices) return undefined;
  return choices.map((choice) => {
    if (!isObject(choice) || typeof choice.const !== 'string') throw new ElicitationSchemaError('an enum choice has no string "const"');
    return { value: choice.const, label: typeof choice.title === 'string' ? choice.title : choice.const };
  });
}

export type ElicitationCheck = { ok: true; content: Record<string, ElicitValue> } | { ok: false; problems: string[] };

/** Every problem with an accepted answer, so the log says exactly why it was not sent. */
export function validateElicitationAnswer(fields: readonly ElicitField[], content: unknown): ElicitationCheck {
  if (!isObject(content)) return { ok: false, problems: ['the answer is not an object'] };
  const problems: string[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(content)) if (!byName.has(key)) problems.push(`"${key}" is not a field of the form`);
  const out: Record<string, ElicitValue> = {};
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined || value === null) {
      if (field.required) problems.push(`"${field.name}" is required`);
      continue;
    }
    const problem = checkValue(field, value);
    if (problem) problems.push(`"${field.name}" ${problem}`);
    else out[field.name] = value as ElicitValue;
  }
  return problems.length ? { ok: false, problems } : { ok: true, content: out };
}

function checkValue(field: ElicitField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength) return `must be at least ${field.minLength} characters long`;
      if (field.maxLength !== undefined && length > field.maxLength) return `must be at most ${field.maxLength} characters long`;
      if (field.format && !FORMAT_CHECKS[field.format](value)) return `is not a valid ${field.format}: ${JSON.stringify(value)}`;
      return undefined;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number, got ${describe(value)}`;
      if (field.integer && !Number.isInteger(value)) return `must be a whole number, got ${value}`;
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}, got ${value}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}, got ${value}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${describe(value)}`;
    case 'enum':
      if (typeof value !== 'string') return `must be one of the choices, got ${describe(value)}`;
      return field.options.some((o) => o.value === value) ? undefined : `must be one of ${field.options.map((o) => o.value).join(', ')}; got ${JSON.stringify(value)}`;
    case 'multiEnum': {
      if (!Array.isArray(value)) return `must be a list of choices, got ${describe(value)}`;
      const allowed = new Set(field.options.map((o) => o.value));
      const wrong = value.filter((v) => typeof v !== 'string' || !allowed.has(v));
      if (wrong.length) return `contains ${wrong.map((v) => JSON.stringify(v)).join(', ')}, not among ${[...allowed].join(', ')}`;
      if (new Set(value).size !== value.length) return 'lists a choice twice';
      if (field.minItems !== undefined && value.length < field.minItems) return `needs at least ${field.minItems} choice${field.minItems === 1 ? '' : 's'}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `takes at most ${field.maxItems} choice${field.maxItems === 1 ? '' : 's'}`;
      return undefined;
    }
  }
}

const FORMAT_CHECKS: Record<(typeof FORMATS)[number], (value: string) => boolean> = {
  // Deliberately simple: one @, no spaces, a dot in the domain. Full RFC 5322 is not what a form needs.
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => /^[a-z][a-z0-9+.-]*:/i.test(v) && URL.canParse(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && isRealDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)),
};

/** Rejects 2024-02-30 and friends, which Date would quietly roll over. */
function isRealDate(v: string): boolean {
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'string' ? `the text ${JSON.stringify(value)}` : `${typeof value} ${JSON.stringify(value)}`;
}
