// One model call whose answer must be JSON of a known shape: the schema goes to the server as structured output
// (Ollama `format`, OpenAI-compatible `response_format`), the reply is dug out of any prose and validated with
// zod, and a bad reply is retried with the model's own answer and what was wrong with it. Used by full indexing
// (file summaries) and, later, the planner.
import type { z } from 'zod';
import type { ChatMessage } from '../messages';
import { toChatRequest, type CacheSlot, type ChatProvider, type ChatRequest } from '../provider';
import { extractJson } from './extractJson';
import { describeIssues } from './issues';
import { responseJsonSchema } from './responseSchema';
import { StructuredOutputError } from './structuredOutputError';
import { readDeltas } from '../streamDeltas';

export interface StructuredCallInput<T> {
  provider: ChatProvider;
  model: string;
  messages: ChatMessage[];
  /** Validates (and may coerce) the reply; its JSON Schema (output side) is what the server is asked for. */
  schema: z.ZodType<T>;
  /** Names the format for the server and in errors, e.g. "file_summary". */
  name: string;
  signal: AbortSignal;
  /** Extra calls after an invalid reply; default 1. */
  retries?: number;
  temperature?: number;
  maxTokens?: number;
  contextSize?: number;
  think?: boolean;
  /** Whose cached prompt the calls are (src/core/cacheSlot.ts); index summaries and the planner are side work. */
  cacheSlot?: CacheSlot;
}

export interface StructuredResult<T> {
  value: T;
  /** Model calls made, 1 when the first reply was good. */
  attempts: number;
  /** The reply the value came from, as the model wrote it. */
  raw: string;
}

export const DEFAULT_STRUCTURED_RETRIES = 1;
/** Issues named in a retry request: enough to fix the reply, few enough for a small window. */
const MAX_ISSUES_IN_FEEDBACK = 8;
/** A runaway bad reply is clipped when it is shown back to the model. */
const MAX_ECHO_CHARS = 2000;

/** Throws StructuredOutputError when every attempt was unusable; provider errors (and aborts) pass through. */
export async function structuredCall<T>(input: StructuredCallInput<T>): Promise<StructuredResult<T>> {
  const retries = Math.max(0, Math.floor(input.retries ?? DEFAULT_STRUCTURED_RETRIES));
  const responseFormat = { name: input.name, schema: responseJsonSchema(input.schema) };
  let messages = input.messages;
  let lastRaw = '';
  let issues: string[] = [];
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    const request = toChatRequest(
      {
        model: input.model,
        messages,
        signal: input.signal,
        responseFormat,
        ...(input.temperature !== undefined && { temperature: input.temperature }),
        ...(input.maxTokens !== undefined && { maxTokens: input.maxTokens }),
        ...(input.contextSize !== undefined && { contextSize: input.contextSize }),
        ...(input.think !== undefined && { think: input.think }),
        ...(input.cacheSlot !== undefined && { cacheSlot: input.cacheSlot }),
      },
      [],
    );
    const reply = await readReply(input.provider, request);
    const outcome = parseReply(reply.text, input.schema);
    if (outcome.ok) return { value: outcome.value, attempts: attempt, raw: reply.text };
    lastRaw = reply.text;
    issues = reply.finishReason === 'length' ? [...outcome.issues, 'the reply was cut off at the token limit: keep it shorter'] : outcome.issues;
    // Only the latest failure is shown: the request stays the size of the first plus one exchange.
    messages = [...input.messages, { role: 'assistant', content: clip(reply.text) }, { role: 'user', content: feedback(issues) }];
  }
  throw new StructuredOutputError(input.name, retries + 1, lastRaw, issues);
}

export type ParsedReply<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/** The first JSON value in the reply that the schema accepts; otherwise what was wrong with the likeliest one. */
export function parseReply<T>(text: string, schema: z.ZodType<T>): ParsedReply<T> {
  const extracted = extractJson(text);
  if (!extracted.ok) return { ok: false, issues: [extracted.reason] };
  let firstFailure: z.ZodError | undefined;
  let shapedFailure: z.ZodError | undefined;
  for (const candidate of extracted.candidates) {
    const result = schema.safeParse(candidate);
    if (result.success) return { ok: true, value: result.data };
    firstFailure ??= result.error;
    // A value of the right kind (its problems lie inside it) says more than a stray one rejected as a whole.
    if (!shapedFailure && result.error.issues.every((issue) => issue.path.length > 0)) shapedFailure = result.error;
  }
  return { ok: false, issues: describeIssues((shapedFailure ?? firstFailure)!) };
}

async function readReply(provider: ChatProvider, request: ChatRequest): Promise<{ text: string; finishReason: string }> {
  let text = '';
  let finishReason = '';
  await readDeltas(provider.chat(request), { text: (piece) => (text += piece), done: (reason) => (finishReason = reason) });
  return { text, finishReason };
}

function feedback(issues: string[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_FEEDBACK).map((line) => `- ${line}`);
  if (issues.length > MAX_ISSUES_IN_FEEDBACK) shown.push(`- … and ${issues.length - MAX_ISSUES_IN_FEEDBACK} more`);
  return [
    'Your reply could not be used. Problems:',
    ...shown,
    'Reply again with only the corrected JSON object, nothing else.',
  ].join('\n');
}

function clip(text: string): string {
  return text.length <= MAX_ECHO_CHARS ? text : `${text.slice(0, MAX_ECHO_CHARS)}…`;
}
