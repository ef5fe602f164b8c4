// Markdown and JSON exports of a session, from plain data (no database needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionToJson, sessionToMarkdown, type SessionDump } from '../../../src/persistence/exportSession';
import type { StoredMessage } from '../../../src/persistence/types';

const base = { sessionId: 's1', displayOnly: false, createdAt: 0 };
const message = (id: number, fields: Partial<StoredMessage> & Pick<StoredMessage, 'role' | 'content'>): StoredMessage => ({ ...base, id, seq: id, ...fields });

const dump: SessionDump = {
  session: {
    id: 's1',
    title: 'Fix\nthe   build',
    model: 'qwen3',
    provider: '',
    createdAt: Date.UTC(2025, 0, 1),
    updatedAt: Date.UTC(2025, 0, 2),
    status: 'interrupted',
    turnOpen: false,
    messageCount: 4,
  },
  messages: [
    message(1, { role: 'system', content: 'Be brief.' }),
    message(2, { role: 'user', content: 'What does this print?\n\n```js\nconsole.log(1)\n```' }),
    message(3, { role: 'tool', content: 'has ```` four backticks', toolCallId: 'c1', toolName: 'read_file' }),
    message(4, { role: 'tool', content: 'short', toolCallId: 'c1', toolName: 'read_file', compressedFrom: 3 }),
  ],
  summary: { text: 'Looked at the build.', filesTouched: ['src/a.ts'], updatedAt: 0 },
};

test('markdown has a header, each original message under its role, and the summary', () => {
  const md = sessionToMarkdown(dump);
  assert.ok(md.startsWith('# Fix the build\n\n- Model: qwen3\n- Created: 2025-01-01T00:00:00.000Z\n- Updated: 2025-01-02T00:00:00.000Z\n- Status: interrupted\n- Messages: 4\n'));
  assert.match(md, /## System\n\nBe brief\./);
  assert.match(md, /## User\n\nWhat does this print\?\n\n```js\nconsole\.log\(1\)\n```/);
  assert.match(md, /## Summary\n\nLooked at the build\.\n\nFiles touched:\n\n- `src\/a\.ts`\n$/);
  assert.doesNotMatch(md, /\nshort\n/, 'compressed copies are not part of the transcript');
});

test('tool output is fenced with more backticks than it contains, so it cannot break out', () => {
  const md = sessionToMarkdown(dump);
  assert.match(md, /## Tool result: read_file \(c1\)\n\n`````\nhas ```` four backticks\n`````/);
});

test('json export carries every row, including compressed copies, and parses back', () => {
  const parsed = JSON.parse(sessionToJson(dump)) as { format: string; version: number; messages: StoredMessage[]; summary: unknown };
  assert.equal(parsed.format, 'localharness-session');
  assert.equal(parsed.version, 1);
  assert.deepEqual(parsed.messages, dump.messages);
  assert.deepEqual(parsed.summary, dump.summary);
  const { summary: _unused, ...withoutSummary } = dump;
  assert.equal((JSON.parse(sessionToJson(withoutSummary)) as { summary: unknown }).summary, null);
});
