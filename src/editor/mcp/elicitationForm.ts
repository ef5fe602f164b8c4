// The elicitation form as a walk over its fields: first "respond or decline?", then one question per field
// (text for strings and numbers, a pick for booleans and enums), each answer checked against the field before
// the next. Pure (no 'vscode' import): the questions go to a FormAsker, which the editor implements with
// native dialogs, input boxes and quick picks, and tests with a script.
import type { ElicitationAnswer, ElicitationPort, ElicitationRequest, ElicitField } from '../../mcp/clientFeatures';
import { validateElicitationAnswer } from '../../mcp/elicitationSchema';

export type ElicitValue = string | number | boolean | string[];

/** A question for a text input: `validate` is run as the user types and again on the returned text. */
export interface TextQuestion {
  /** e.g. `everything: Your name (field 1 of 3)`. */
  title: string;
  /** What the field is for, with its constraints. */
  prompt: string;
  /** Prefilled (the field's default, or what was typed before a failed check). */
  value: string;
  placeholder?: string;
  /** A problem from the last attempt, shown at once. */
  problem?: string;
  /** A problem with the text, or undefined when it is acceptable. */
  validate: (text: string) => string | undefined;
}

export interface PickItem {
  id: string;
  label: string;
  description?: string;
}

export interface PickQuestion {
  title: string;
  placeholder: string;
  items: PickItem[];
  canPickMany: boolean;
  /** Single pick: the item to highlight; many: the items ticked at first. */
  preselected: string[];
  /** A problem from the last attempt (too few / too many ticked), shown at once. */
  problem?: string;
}

/** What the editor (or a test) does for each question. `undefined` means the user closed it (Esc). */
export interface FormAsker {
  /** The opening question. */
  confirm(request: { server: string; message: string; fields: readonly ElicitField[] }): Promise<'respond' | 'decline' | undefined>;
  text(question: TextQuestion, signal: AbortSignal): Promise<string | undefined>;
  /** The ids picked (one for a single pick; possibly none for many). */
  pick(question: PickQuestion, signal: AbortSignal): Promise<string[] | undefined>;
}

/** The item that leaves an optional single-choice field unanswered. */
export const SKIP_ID = '\u0000skip';
const YES = 'true';
const NO = 'false';
/** A scripted asker that never returns a valid answer must not loop forever. */
const MAX_ATTEMPTS = 20;

/**
 * Walk the form. Decline → `decline`; closing any question, an aborted signal or a question that keeps getting
 * invalid answers → `cancel`; otherwise `accept` with the answered fields (optional ones left empty are omitted).
 */
export async function runElicitationForm(request: ElicitationRequest, asker: FormAsker, signal: AbortSignal): Promise<ElicitationAnswer> {
  if (signal.aborted) return { action: 'cancel' };
  const opening = await asker.confirm({ server: request.server, message: request.message, fields: request.fields });
  if (signal.aborted || opening === undefined) return { action: 'cancel' };
  if (opening === 'decline') return { action: 'decline' };
  const content: Record<string, ElicitValue> = {};
  const total = request.fields.length;
  for (const [i, field] of request.fields.entries()) {
    const title = `${request.server}: ${fieldLabel(field)} (field ${i + 1} of ${total})`;
    const answer = await askField(field, title, asker, signal);
    if (signal.aborted || answer.kind === 'closed') return { action: 'cancel' };
    if (answer.kind === 'value') content[field.name] = answer.value;
  }
  return { action: 'accept', content };
}

/** The elicitation port over an asker: one form at a time (two servers asking at once would mix their questions). */
export function formPort(asker: FormAsker): ElicitationPort {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const form = queue.then(() => runElicitationForm(request, asker, signal));
    queue = form.catch(() => undefined);
    return form;
  };
}

type FieldAnswer = { kind: 'value'; value: ElicitValue } | { kind: 'empty' } | { kind: 'closed' };

function askField(field: ElicitField, title: string, asker: FormAsker, signal: AbortSignal): Promise<FieldAnswer> {
  switch (field.kind) {
    case 'string':
    case 'number':
      return askText(field, title, asker, signal);
    case 'boolean':
    case 'enum':
    case 'multiEnum':
      return askPick(field, title, asker, signal);
  }
}

async function askText(field: Extract<ElicitField, { kind: 'string' | 'number' }>, title: string, asker: FormAsker, signal: AbortSignal): Promise<FieldAnswer> {
  const validate = (text: string) => {
    const read = readText(field, text);
    return read.ok ? undefined : read.problem;
  };
  let value = field.default !== undefined ? String(field.default) : '';
  let problem: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const text = await asker.text(
      {
        title,
        prompt: describeField(field),
        value,
        ...(placeholderOf(field) !== undefined && { placeholder: placeholderOf(field) }),
        ...(problem !== undefined && { problem }),
        validate,
      },
      signal,
    );
    if (text === undefined || signal.aborted) return { kind: 'closed' };
    const read = readText(field, text);
    if (read.ok) return read.value === undefined ? { kind: 'empty' } : { kind: 'value', value: read.value };
    value = text;
    problem = read.problem;
  }
  return { kind: 'closed' };
}

async function askPick(field: Extract<ElicitField, { kind: 'boolean' | 'enum' | 'multiEnum' }>, title: string, asker: FormAsker, signal: AbortSignal): Promise<FieldAnswer> {
  const question = pickQuestion(field, title);
  let problem: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const ids = await asker.pick({ ...question, ...(problem !== undefined && { problem }) }, signal);
    if (ids === undefined || signal.aborted) return { kind: 'closed' };
    const read = readPick(field, ids);
    if (read.ok) return read.value === undefined ? { kind: 'empty' } : { kind: 'value', value: read.value };
    problem = read.problem;
    if (field.kind === 'multiEnum') question.preselected = ids.filter((id) => field.options.some((o) => o.value === id));
  }
  return { kind: 'closed' };
}

type Read = { ok: true; value: ElicitValue | undefined } | { ok: false; problem: string };

/** The typed text as the field's value; empty text is "no answer", allowed only for optional fields. */
export function readText(field: Extract<ElicitField, { kind: 'string' | 'number' }>, text: string): Read {
  if (field.kind === 'string') {
    if (text === '') return field.required ? { ok: false, problem: 'This field is required.' } : { ok: true, value: undefined };
    const length = [...text].length;
    if (field.minLength !== undefined && length < field.minLength) return { ok: false, problem: `At least ${plural(field.minLength, 'character')}.` };
    if (field.maxLength !== undefined && length > field.maxLength) return { ok: false, problem: `At most ${plural(field.maxLength, 'character')} (this is ${length}).` };
    // The format rules are the client's own, which checks the whole answer again before it is sent.
    if (field.format && !validateElicitationAnswer([field], { [field.name]: text }).ok) return { ok: false, problem: FORMAT_PROBLEMS[field.format] };
    return { ok: true, value: text };
  }
  const trimmed = text.trim();
  if (trimmed === '') return field.required ? { ok: false, problem: 'This field is required.' } : { ok: true, value: undefined };
  if (!NUMBER.test(trimmed)) return { ok: false, problem: field.integer ? 'Enter a whole number.' : 'Enter a number.' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, problem: 'Enter a number.' };
  if (field.integer && !Number.isInteger(value)) return { ok: false, problem: 'Enter a whole number.' };
  if (field.minimum !== undefined && value < field.minimum) return { ok: false, problem: `At least ${field.minimum}.` };
  if (field.maximum !== undefined && value > field.maximum) return { ok: false, problem: `At most ${field.maximum}.` };
  return { ok: true, value };
}

/** The picked ids as the field's value. */
export function readPick(field: Extract<ElicitField, { kind: 'boolean' | 'enum' | 'multiEnum' }>, ids: readonly string[]): Read {
  if (field.kind === 'multiEnum') {
    const known = ids.filter((id) => field.options.some((o) => o.value === id));
    if (known.length === 0 && !field.required) return { ok: true, value: undefined };
    if (known.length === 0) return { ok: false, problem: 'Choose at least one.' };
    if (field.minItems !== undefined && known.length < field.minItems) return { ok: false, problem: `Choose at least ${field.minItems}.` };
    if (field.maxItems !== undefined && known.length > field.maxItems) return { ok: false, problem: `Choose at most ${field.maxItems} (${known.length} are ticked).` };
    return { ok: true, value: known };
  }
  const id = ids[0];
  if (id === undefined || id === SKIP_ID) return field.required ? { ok: false, problem: 'This field is required: choose one.' } : { ok: true, value: undefined };
  if (field.kind === 'boolean') {
    if (id === YES || id === NO) return { ok: true, value: id === YES };
    return { ok: false, problem: 'Choose Yes or No.' };
  }
  return field.options.some((o) => o.value === id) ? { ok: true, value: id } : { ok: false, problem: 'Choose one of the listed values.' };
}

function pickQuestion(field: Extract<ElicitField, { kind: 'boolean' | 'enum' | 'multiEnum' }>, title: string): PickQuestion {
  const skip: PickItem[] = field.required || field.kind === 'multiEnum' ? [] : [{ id: SKIP_ID, label: 'No answer', description: 'leave this optional field empty' }];
  const placeholder = describeField(field);
  if (field.kind === 'boolean') {
    const preselected = field.default === undefined ? [] : [field.default ? YES : NO];
    return { title, placeholder, canPickMany: false, preselected, items: [{ id: YES, label: 'Yes' }, { id: NO, label: 'No' }, ...skip] };
  }
  const items = field.options.map((o) => ({ id: o.value, label: o.label, ...(o.label !== o.value && { description: o.value }) }));
  if (field.kind === 'enum') return { title, placeholder, canPickMany: false, preselected: field.default !== undefined ? [field.default] : [], items: [...items, ...skip] };
  return { title, placeholder, canPickMany: true, preselected: [...(field.default ?? [])], items };
}

export function fieldLabel(field: ElicitField): string {
  return field.title?.trim() || field.name;
}

/** The field's description and constraints, e.g. "Your age — whole number from 1 to 120, optional". */
export function describeField(field: ElicitField): string {
  const rules: string[] = [];
  switch (field.kind) {
    case 'string':
      if (field.format) rules.push(FORMAT_NAMES[field.format]);
      if (field.minLength !== undefined && field.maxLength !== undefined) rules.push(`${field.minLength}–${field.maxLength} characters`);
      else if (field.minLength !== undefined) rules.push(`at least ${plural(field.minLength, 'character')}`);
      else if (field.maxLength !== undefined) rules.push(`at most ${plural(field.maxLength, 'character')}`);
      break;
    case 'number':
      rules.push(`${field.integer ? 'whole number' : 'number'}${range(field.minimum, field.maximum)}`);
      break;
    case 'multiEnum':
      if (field.minItems !== undefined && field.maxItems !== undefined) rules.push(`tick ${field.minItems}–${field.maxItems}`);
      else if (field.minItems !== undefined) rules.push(`tick at least ${field.minItems}`);
      else if (field.maxItems !== undefined) rules.push(`tick at most ${field.maxItems}`);
      else rules.push('tick any');
      break;
    default:
      break;
  }
  rules.push(field.required ? 'required' : 'optional');
  const what = field.description?.trim() || fieldLabel(field);
  return `${what} (${rules.join(', ')})`;
}

/** One line per field for the opening dialog. */
export function formSummary(fields: readonly ElicitField[]): string {
  if (fields.length === 0) return 'The form has no fields: responding sends an empty answer.';
  const lines = fields.map((f) => `• ${fieldLabel(f)}${f.required ? ' (required)' : ''}`);
  return `The form has ${plural(fields.length, 'field')}:\n${lines.join('\n')}`;
}

function placeholderOf(field: Extract<ElicitField, { kind: 'string' | 'number' }>): string | undefined {
  if (field.kind === 'string' && field.format) return FORMAT_EXAMPLES[field.format];
  if (!field.required) return 'leave empty to skip';
  return undefined;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  if (max !== undefined) return ` ≤ ${max}`;
  return '';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

type Format = NonNullable<Extract<ElicitField, { kind: 'string' }>['format']>;

const FORMAT_NAMES: Record<Format, string> = { email: 'email address', uri: 'URL', date: 'date YYYY-MM-DD', 'date-time': 'date and time' };
const FORMAT_EXAMPLES: Record<Format, string> = { email: 'name@example.com', uri: 'https://example.com', date: '2024-05-31', 'date-time': '2024-05-31T14:30:00Z' };
const FORMAT_PROBLEMS: Record<Format, string> = {
  email: 'Enter an email address, like name@example.com.',
  uri: 'Enter a URL with its scheme, like https://example.com.',
  date: 'Enter a real date as YYYY-MM-DD, like 2024-05-31.',
  'date-time': 'Enter a date and time like 2024-05-31T14:30:00Z.',
};
