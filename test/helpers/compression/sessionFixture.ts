// A scripted agent session: user requests, rounds of tool calls (read_file, run_command, write_file,
// search_files) with realistic results, and assistant replies. Deterministic for a given seed.
import type { ChatMessage, ToolCall, ToolDefinition } from '../../../src/core/messages';
import { code, prose, seeded } from '../tokens/mixedCorpus';

export interface SessionOptions {
  /** Stop once the history has at least this many messages (it ends after an assistant reply). */
  messages: number;
  seed?: number;
  /** Approximate size of each file read. */
  fileChars?: number;
  /** Tool rounds per user request: 1..maxRounds. */
  maxRounds?: number;
}

export const SESSION_TOOLS: ToolDefinition[] = [
  { name: 'read_file', description: 'Read a text file, optionally only lines start_line..end_line.', parameters: { type: 'object', properties: { path: { type: 'string' }, start_line: { type: 'integer' }, end_line: { type: 'integer' } }, required: ['path'] } },
  { name: 'write_file', description: 'Write a whole file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { name: 'run_command', description: 'Run a shell command in the workspace.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'search_files', description: 'Search files for a regular expression.', parameters: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] } },
];

export function scriptedSession(options: SessionOptions): ChatMessage[] {
  const rand = seeded(options.seed ?? 42);
  const fileChars = options.fileChars ?? 1500;
  const maxRounds = options.maxRounds ?? 3;
  const history: ChatMessage[] = [];
  let callNo = 0;
  let fileNo = 0;
  while (history.length < options.messages) {
    history.push({ role: 'user', content: `Please work on module ${fileNo}: ${prose(rand, 2 + Math.floor(rand() * 3))}` });
    const rounds = 1 + Math.floor(rand() * maxRounds);
    for (let r = 0; r < rounds; r++) {
      const id = `call_${++callNo}`;
      const kind = rand();
      let call: ToolCall;
      let result: string;
      if (kind < 0.45) {
        const path = `src/module${fileNo++}.ts`;
        const body = fileBody(rand, fileChars);
        const lines = body.split('\n').length;
        call = { id, name: 'read_file', arguments: JSON.stringify({ path }) };
        result = `${path} (${lines} lines):\n${body}`;
      } else if (kind < 0.65) {
        const exit = rand() < 0.3 ? 1 : 0;
        call = { id, name: 'run_command', arguments: { command: 'npm test -- --grep module' } };
        result = `${prose(rand, 4)}\n${exit ? 'FAIL test/module.test.ts\n  expected 3, got 4' : 'PASS all 12 tests'}\n[Exit code ${exit}.]`;
      } else if (kind < 0.85) {
        const path = `src/module${Math.max(0, fileNo - 1)}.ts`;
        call = { id, name: 'write_file', arguments: { path, content: fileBody(rand, Math.floor(fileChars * 0.8)) } };
        result = `Wrote ${path}.`;
      } else {
        call = { id, name: 'search_files', arguments: { pattern: 'contextWindow' } };
        result = Array.from({ length: 8 }, (_, i) => `src/module${i}.ts:${10 + i}: const contextWindow = options.window ?? ${4096 * (i + 1)};`).join('\n');
      }
      history.push({ role: 'assistant', content: rand() < 0.5 ? prose(rand, 1) : '', toolCalls: [call] });
      history.push({ role: 'tool', content: result, toolCallId: id, toolName: call.name });
    }
    history.push({ role: 'assistant', content: prose(rand, 3 + Math.floor(rand() * 4)) });
  }
  return history;
}

function fileBody(rand: () => number, chars: number): string {
  let body = '';
  while (body.length < chars) body += code(rand, 1);
  return body.slice(0, chars);
}

/** The system prompt the tests send: plain instructions of a realistic size. */
export function systemMessage(seed = 1): ChatMessage {
  return { role: 'system', content: `You are a coding agent. ${prose(seeded(seed), 8)}` };
}
