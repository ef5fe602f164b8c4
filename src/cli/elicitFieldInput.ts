// One field of an MCP elicitation form on a terminal: how it is described, and what a typed line means for it.
import type { ElicitField } from '../mcp/clientFeatures';
import { printable } from './terminalLines';

export type FieldValue = string | number | boolean | string[];

/** What one typed line means: a value, "leave this optional field out", or why it was not accepted. */
export type FieldInput = { value: FieldValue } | { skip: true } | { error: string };

/** The lines shown before a field's question: its title, description, what is allowed, and what Enter does. */
export function describeField(field: ElicitField): string[] {
  const title = field.title && field.title !== field.name ? `${field.title} (${field.name})` : field.name;
  const lines = [`${printable(title)}${field.required ? ', required' : ', optional'}`];
  if (field.description) lines.push(`  ${printable(field.description)}`);
  const allowed = allowedText(field);
  if (allowed) lines.push(`  ${allowed}`);
  if (field.kind === 'enum' || field.kind === 'multiEnum') {
    field.options.forEach((o, i) => lines.push(`    ${i + 1}) ${optionText(o)}`));
  }
  if (field.default !== undefined) lines.push(`  Enter: ${printable(defaultText(field))}`);
  else if (!field.required) lines.push('  Enter: leave it out');
  return lines;
}

export function parseFieldInput(field: ElicitField, line: string): FieldInput {
  const text = line.trim();
  if (text === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: 'an answer is required' } : { skip: true };
  }
  switch (field.kind) {
    case 'string':
      return stringInput(field, text);
    case 'number':
      return numberInput(field, text);
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { error: 'answer y or n' };
    case 'enum': {
      const chosen = chooseOption(field.options, text);
      return typeof chosen === 'string' ? { value: chosen } : chosen;
    }
    case 'multiEnum': {
      const values: string[] = [];
      for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
        const chosen = chooseOption(field.options, part);
        if (typeof chosen !== 'string') return chosen;
        if (!values.includes(chosen)) values.push(chosen);
      }
      if (field.minItems !== undefined && values.length < field.minItems) return { error: `choose at least ${field.minItems}` };
      if (field.maxItems !== undefined && values.length > field.maxItems) return { error: `choose at most ${field.maxItems}` };
      return { value: values };
    }
  }
}

function allowedText(field: ElicitField): string {
  switch (field.kind) {
    case 'string': {
      const parts = [FORMATS[field.format ?? ''] ?? 'text'];
      if (field.minLength !== undefined && field.maxLength !== undefined) parts.push(`${field.minLength} to ${field.maxLength} characters`);
      else if (field.minLength !== undefined) parts.push(`at least ${field.minLength} characters`);
      else if (field.maxLength !== undefined) parts.push(`at most ${field.maxLength} characters`);
      return parts.join(', ');
    }
    case 'number': {
      const kind = field.integer ? 'a whole number' : 'a number';
      if (field.minimum !== undefined && field.maximum !== undefined) return `${kind} from ${field.minimum} to ${field.maximum}`;
      if (field.minimum !== undefined) return `${kind}, at least ${field.minimum}`;
      if (field.maximum !== undefined) return `${kind}, at most ${field.maximum}`;
      return kind;
    }
    case 'boolean':
      return 'y or n';
    case 'enum':
      return 'one of (its number or value):';
    case 'multiEnum': {
      const count =
        field.minItems !== undefined && field.maxItems !== undefined ? `${field.minItems} to ${field.maxItems}`
        : field.minItems !== undefined ? `at least ${field.minItems}`
        : field.maxItems !== undefined ? `up to ${field.maxItems}`
        : 'any';
      return `${count} of (numbers or values, separated by commas):`;
    }
  }
}

const FORMATS: Record<string, string> = {
  email: 'an email address',
  uri: 'a URI (scheme:…, e.g. https://example.com)',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, YYYY-MM-DDTHH:MM:SSZ (or with an offset like +02:00)',
};

function optionText(o: { value: string; label: string }): string {
  return o.label && o.label !== o.value ? `${printable(o.label)} (${printable(o.value)})` : printable(o.value);
}

function defaultText(field: ElicitField): string {
  if (field.kind === 'enum' || field.kind === 'multiEnum') {
    const label = (value: string) => field.options.find((o) => o.value === value)?.label ?? value;
    return (Array.isArray(field.default) ? field.default : [field.default ?? '']).map(label).join(', ');
  }
  const d = field.default;
  if (typeof d === 'boolean') return d ? 'yes' : 'no';
  return String(d);
}

function stringInput(field: Extract<ElicitField, { kind: 'string' }>, text: string): FieldInput {
  const length = Array.from(text).length;
  if (field.minLength !== undefined && length < field.minLength) return { error: `at least ${field.minLength} characters, got ${length}` };
  if (field.maxLength !== undefined && length > field.maxLength) return { error: `at most ${field.maxLength} characters, got ${length}` };
  const formatError = field.format ? checkFormat(field.format, text) : undefined;
  return formatError ? { error: formatError } : { value: text };
}

function checkFormat(format: 'email' | 'uri' | 'date' | 'date-time', text: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? undefined : 'not an email address (name@example.com)';
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text) && URL.canParse(text) ? undefined : 'not a URI (e.g. https://example.com)';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && realDate(text) ? undefined : 'not a date (YYYY-MM-DD)';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && realDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'not a date and time (YYYY-MM-DDTHH:MM:SSZ)';
  }
}

/** 2024-02-30 matches the pattern but is no day of the calendar. */
function realDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function numberInput(field: Extract<ElicitField, { kind: 'number' }>, text: string): FieldInput {
  const n = Number(text);
  if (!Number.isFinite(n)) return { error: `not a number: "${text}"` };
  if (field.integer && !Number.isInteger(n)) return { error: 'a whole number is needed' };
  if (field.minimum !== undefined && n < field.minimum) return { error: `at least ${field.minimum}` };
  if (field.maximum !== undefined && n > field.maximum) return { error: `at most ${field.maximum}` };
  return { value: n };
}

/** An option by its number in the list, its exact value, or (ignoring case) its value or label. */
function chooseOption(options: ReadonlyArray<{ value: string; label: string }>, text: string): string | { error: string } {
  if (/^\d+$/.test(text)) {
    const index = Number(text);
    if (index >= 1 && index <= options.length) return options[index - 1]!.value;
  }
  const exact = options.find((o) => o.value === text);
  if (exact) return exact.value;
  const lower = text.toLowerCase();
  const loose = options.filter((o) => o.value.toLowerCase() === lower || o.label.toLowerCase() === lower);
  if (loose.length === 1) return loose[0]!.value;
  return { error: `"${printable(text)}" is not one of the choices (1 to ${options.length}, or a value)` };
}
