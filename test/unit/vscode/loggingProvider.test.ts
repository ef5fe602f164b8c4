import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../../../src/core/tokens';
import { LoggingProvider } from '../../../src/editor/engine/loggingProvider';
import { Logger } from '../../../src/editor/log/logger';
import { ScriptedProvider, textReply } from '../resilience/scriptedProvider';
import { RecordingLogSink } from '../../helpers/recordingLogSink';

const TOOLS: ToolDefinition[] = [
  { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

function loggedEstimate(lines: readonly string[], n: number): number {
  const line = lines.find((l) => l.startsWith(`request #${n} `));
  assert.ok(line, `no log line for request #${n}: ${lines.join('\n')}`);
  return Number(/ ~(\d+) tokens/.exec(line)![1]);
}

test('each request line carries the token estimate of the whole request as the history grows', async () => {
  const sink = new RecordingLogSink();
  const inner = new ScriptedProvider([textReply('one'), textReply('two'), textReply('three')]);
  const provider = new LoggingProvider(inner, new Logger(sink));
  const history: ChatMessage[] = [
    { role: 'user', content: 'Read src/a.ts and tell me what it does.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/a.ts' } }] },
    { role: 'tool', content: 'export const a = 1;\n'.repeat(20), toolCallId: 'c1', toolName: 'read_file' },
  ];
  const send = async (messages: ChatMessage[]) => drain(provider.chat({ model: 'm', messages, tools: TOOLS, signal: new AbortController().signal }));
  const expected = (messages: ChatMessage[]) => estimateMessagesTokens(messages) + estimateToolDefinitionTokens(TOOLS);

  const first = [{ role: 'system', content: 'You are helpful.' } as ChatMessage, ...history];
  await send(first);
  assert.equal(loggedEstimate(sink.messages, 1), expected(first));

  // The next call re-sends the same message objects plus new ones, and a new system prompt.
  history.push({ role: 'assistant', content: 'It exports the constant `a`, set to 1, repeated twenty times over.' });
  history.push({ role: 'user', content: 'And what else is in the folder?' });
  const second = [{ role: 'system', content: 'You are helpful. Files you read: src/a.ts' } as ChatMessage, ...history];
  await send(second);
  assert.equal(loggedEstimate(sink.messages, 2), expected(second));
  assert.ok(loggedEstimate(sink.messages, 2) > loggedEstimate(sink.messages, 1));

  // A compressed copy in place of an original counts as what it says now.
  const compressed = [second[0]!, second[1]!, second[2]!, { ...history[2]!, content: '[Compressed] a.ts: one constant.' }, ...history.slice(3)];
  await send(compressed);
  assert.equal(loggedEstimate(sink.messages, 3), expected(compressed));
  assert.ok(loggedEstimate(sink.messages, 3) < loggedEstimate(sink.messages, 2));
});
