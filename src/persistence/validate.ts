// Checks on what callers hand the store, so bad input fails with a clear message before anything is written.
import type { ToolCall } from '../core/messages';
import { PersistenceError } from './errors';
import type { JsonValue, MessageUpdate, NewMessage, NewSession, TokenCounts, ToolAuditInput } from './types';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const OUTCOMES = new Set(['ok', 'error', 'denied']);
const MAX_TITLE = 500;
const MAX_KEY = 200;

function fail(message: string): never {
  throw new PersistenceError('invalid-input', message);
}

export function checkTitle(title: unknown): string {
  if (typeof title !== 'string') fail('A session title must be a string.');
  const trimmed = title.trim();
  if (trimmed === '') fail('A session title cannot be empty.');
  if (trimmed.length > MAX_TITLE) fail(`A session title can be at most ${MAX_TITLE} characters (got ${trimmed.length}).`);
  return trimmed;
}

export function checkNewSession(input: NewSession): NewSession {
  if (typeof input !== 'object' || input === null) fail('createSession needs { title, model, provider }.');
  if (typeof input.model !== 'string') fail('A session model must be a string.');
  if (typeof input.provider !== 'string') fail('A session provider must be a string.');
  return { title: checkTitle(input.title), model: input.model, provider: input.provider };
}

export function checkMessage(message: NewMessage): void {
  if (typeof message !== 'object' || message === null) fail('A message must be an object.');
  if (!ROLES.has(message.role)) fail(`Unknown message role "${String(message.role)}" (expected system, user, assistant or tool).`);
  if (typeof message.content !== 'string') fail('A message content must be a string.');
  if (message.thinking !== undefined && typeof message.thinking !== 'string') fail('A message "thinking" must be a string.');
  if (message.context !== undefined && typeof message.context !== 'string') fail('A message "context" must be a string.');
  if (message.attachments !== undefined && (!Array.isArray(message.attachments) || message.attachments.some((a) => typeof a?.label !== 'string' || typeof a?.text !== 'string'))) {
    fail('A message\'s "attachments" must be a list of {label, text}.');
  }
  if (message.images !== undefined && (!Array.isArray(message.images) || message.images.some((i) => typeof i?.data !== 'string' || typeof i?.name !== 'string' || typeof i?.mimeType !== 'string'))) {
    fail('A message\'s "images" must be a list of {mimeType, data, name}.');
  }
  if (message.toolCalls !== undefined) checkToolCalls(message.toolCalls);
  if (message.toolCallId !== undefined && typeof message.toolCallId !== 'string') fail('toolCallId must be a string.');
  if (message.toolName !== undefined && typeof message.toolName !== 'string') fail('toolName must be a string.');
  if (message.tokens !== undefined) checkTokens(message.tokens);
}

export function checkUpdate(update: MessageUpdate): void {
  if (typeof update !== 'object' || update === null || typeof update.content !== 'string') {
    fail('A message update needs a string "content".');
  }
  if (update.thinking !== undefined && update.thinking !== null && typeof update.thinking !== 'string') {
    fail('A message update "thinking" must be a string or null.');
  }
  if (update.toolCalls !== undefined) checkToolCalls(update.toolCalls);
}

function checkToolCalls(calls: ToolCall[]): void {
  if (!Array.isArray(calls)) fail('toolCalls must be an array.');
  for (const call of calls) {
    if (typeof call?.id !== 'string' || typeof call.name !== 'string') fail('Each tool call needs a string id and name.');
    const args = call.arguments;
    if (typeof args !== 'string' && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      fail(`Tool call ${call.id}: arguments must be a string or an object.`);
    }
  }
}

function checkTokens(tokens: TokenCounts): void {
  for (const [name, value] of Object.entries(tokens)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      fail(`Token count "${name}" must be a whole number ≥ 0 (got ${String(value)}).`);
    }
  }
}

export function checkAudit(input: ToolAuditInput): void {
  if (typeof input !== 'object' || input === null) fail('A tool audit entry must be an object.');
  for (const key of ['sessionId', 'toolCallId', 'name', 'approval'] as const) {
    if (typeof input[key] !== 'string') fail(`Tool audit "${key}" must be a string.`);
  }
  if (!Number.isFinite(input.durationMs) || input.durationMs < 0) fail('Tool audit "durationMs" must be a number ≥ 0.');
  if (!OUTCOMES.has(input.outcome)) fail(`Tool audit "outcome" must be ok, error or denied (got ${String(input.outcome)}).`);
}

export function checkPath(path: unknown): string {
  if (typeof path !== 'string' || path === '') fail('A checkpoint path must be a non-empty string.');
  return path;
}

export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY) fail(`A key must be a string of 1 to ${MAX_KEY} characters.`);
  return key;
}

/** JSON text for the kv table; rejects what JSON cannot round-trip (undefined, functions, NaN, cycles). */
export function encodeJsonValue(value: JsonValue): string {
  if (!isJson(value, 0)) fail('The value cannot be stored: only JSON values (finite numbers, strings, booleans, null, arrays, plain objects) are allowed.');
  return JSON.stringify(value);
}

function isJson(value: unknown, depth: number): boolean {
  if (depth > 64) return false; // also stops cycles
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1));
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.values(value).every((v) => isJson(v, depth + 1));
  }
  return false;
}
