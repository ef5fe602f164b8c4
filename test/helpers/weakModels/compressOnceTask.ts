// The 12-note rename in a small window, as the compress-once bench and test run it (issue 31): the weak rename
// model, a server that refuses a request over the window the way llama-server does, and one of three answers to
// the compression pass — a tool call on a server that ignores the response format (the model ignores the request),
// the summaries on a server that applies it (the model follows), or a tool call the applied format turns into the
// schema's least (grammar.ts).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { roughPromptTokens } from '../fakeLlm/script';
import { FILE_COUNT, kindOf, noteName, noteText } from '../tasks/fileTask';
import { followsUnderGrammar, isCompressionRequest } from './compressionModels';
import { offeredTools } from './requestView';
import { renameTaskModel } from './renameTaskModel';

export type PassAnswer = 'ignores (tool call)' | 'follows' | 'tool call, format applied';

/** Whether the server applies the compression pass's response format (a grammar from its schema). */
export const APPLIES_FORMAT: Record<PassAnswer, boolean> = { 'ignores (tool call)': false, follows: true, 'tool call, format applied': true };

/** The targets: compressions per task. */
export const MAX_COMPRESSIONS: Record<PassAnswer, number> = { 'ignores (tool call)': 3, follows: 2, 'tool call, format applied': 3 };

/** Notes of one line, or of about `bytes` bytes of prose around the kind (600 → ~880 B). */
export function notesWorkspace(bytes = 0): string {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'lh-compress-once-')), 'ws');
  mkdirSync(ws);
  for (let n = 1; n <= FILE_COUNT; n++) writeFileSync(path.join(ws, noteName(n)), bytes ? noteText(n, bytes) : `Note ${n}\nDocument kind: ${kindOf(n)}.\n`);
  return ws;
}

/** The weak rename model behind a window; the compression request answered as `answer` says. */
export function renameInWindow(window: number | undefined, answer: PassAnswer): (request: ChatBody) => ScriptedReply {
  const agent = renameTaskModel({ trustsTrimmed: false });
  return (request) => {
    const tokens = roughPromptTokens(request);
    if (window && tokens > window) return { fault: 'http500', status: 400, errorMessage: `the request exceeds the available context size (${tokens} tokens > ${window})` };
    if (isCompressionRequest(request) && answer === 'follows') return followsUnderGrammar(request);
    const reply = agent(request);
    const call = reply.toolCalls?.[0];
    if (call?.name === 'task_completion' && !offeredTools(request).some((t) => t.name === 'task_completion')) {
      return { text: String((call.arguments as { result?: unknown }).result ?? 'Done.') };
    }
    return reply;
  };
}
