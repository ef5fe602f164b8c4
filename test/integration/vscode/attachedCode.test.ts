// Context chips read at send time, without the editor: a chip holds a reference; the file is edited after it was
// attached; the message built at send time carries the edited lines (real files through NodeFileSystem), the
// editor session sends it to the fake Ollama server, and the panel shows the question with compact chip labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOllamaServer } from '../../helpers/fakeLlm';
import { EventBus } from '../../../src/core/agent/events';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { ApprovalGate, createChatProvider, createToolRegistry } from '../../../src/editor/engine/turnEngine';
import { editorSession } from '../../helpers/editorSession';
import { ChatStateStore } from '../../../src/editor/chat/chatStateStore';
import { buildAttachedMessage } from '../../../src/editor/codeToChat/readAttachments';
import { markFor } from '../../../src/editor/history/compressionMarks';
import { Logger } from '../../../src/editor/log/logger';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import type { Attachment } from '../../../src/shared/protocol';

const never = new AbortController().signal;

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lh-attached-'));
  for (const [rel, text] of Object.entries(files)) await writeFile(path.join(dir, rel), text);
  return dir;
}

const chip = (dir: string, rel: string, lines?: [number, number]): Attachment => ({
  id: `${rel}:${lines?.join('-') ?? 'all'}`,
  path: rel,
  file: path.join(dir, rel),
  ...(lines && { startLine: lines[0], endLine: lines[1] }),
  languageId: 'typescript',
});

test('the chip is read when the message is sent: the model gets the edited lines; the panel shows the question and the chip', async () => {
  const dir = await workspace({ 'calc.ts': 'export function add(a: number, b: number) {\n  return a - b;\n}\n// end\n' });
  const server = await startFakeOllamaServer([{ text: 'It subtracts; it should add.' }], { name: 'attached code' });
  try {
    const store = new ChatStateStore();
    store.addAttachment(chip(dir, 'calc.ts', [1, 3]));
    // Edited after attaching: the chip must show this, not the text at attach time.
    await writeFile(path.join(dir, 'calc.ts'), 'export function add(a: number, b: number) {\n  return a - b; // why?\n}\n// end\n');

    const attached = await buildAttachedMessage('Explain this code.', store.attachments, new NodeFileSystem(), never);
    assert.deepEqual(attached.reads, [{ path: 'calc.ts', range: { start: 1, end: 3 } }]);

    const bus = new EventBus();
    bus.on((e) => store.applyAgentEvent(e));
    const fs = new NodeFileSystem();
    const log = new Logger(new RecordingLogSink());
    const settings = { ...DEFAULT_SETTINGS, ollamaHost: server.origin, model: 'qwen3' };
    const tracker = new ContextTracker();
    for (const read of attached.reads) tracker.fileRead(read.path, read.range);
    const session = editorSession(
      {
        registry: createToolRegistry(),
        gate: new ApprovalGate({ policy: { autoApprove: settings.autoApprove, rules: [] }, ask: async () => ({ approved: false, reason: 'no edits in this test' }) }),
        tracker,
        fs,
        runner: new NodeProcessRunner(),
        bus,
        panel: store,
      },
      {
        provider: createChatProvider(settings, undefined, log),
        model: settings.model,
        settings,
        access: 'all',
        folders: [{ name: 'ws', path: dir }],
        systemInfo: { os: 'test', shell: '/bin/sh', workspaceFolders: [dir] },
      },
    );
    const outcome = await session.send(attached.message, never);
    assert.equal(outcome.reason, 'completed', outcome.error);

    const request = server.requests[0] as { messages: Array<{ role: string; content: string }> };
    const user = request.messages.filter((m) => m.role === 'user').at(-1)!.content;
    // The code and the question, then (with the turn's first request) the working context: it knows the model has
    // seen those lines.
    assert.match(user, /\ncalc\.ts:1-3\n```typescript\nexport function add\(a: number, b: number\) \{\n {2}return a - b; \/\/ why\?\n\}\n```\n\nExplain this code\.\n\n# Working context\nFiles you read: calc\.ts \(lines 1-3\)$/);
    assert.ok(!user.includes('// end'), 'only the chip\'s lines');
    assert.doesNotMatch(request.messages.find((m) => m.role === 'system')!.content, /# Working context/, 'never in the system prompt');

    // The panel: the question and the chip's label, not the code.
    const shown = store.state.items.find((i) => i.kind === 'user');
    assert.equal(shown?.kind === 'user' && shown.text, `Explain this code.\nAttached: calc.ts:1-3`);
    // A restored session shows the same, and a compression mark still finds the message.
    store.load(session.history);
    const restored = store.state.items.find((i) => i.kind === 'user');
    assert.equal(restored?.kind === 'user' && restored.text, `Explain this code.\nAttached: calc.ts:1-3`);
    const index = session.history.findIndex((m) => m.role === 'user');
    store.dispatch(markFor(session.history, index, '[compressed]')!);
    const marked = store.state.items.find((i) => i.kind === 'user');
    assert.equal(marked?.kind === 'user' && marked.compressed, '[compressed]');
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('big selections are clipped with a note, a file that shrank is read as it is now, a missing file is named, the total is bounded', async () => {
  const long = Array.from({ length: 400 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n') + '\n';
  const dir = await workspace({ 'big.ts': long, 'small.ts': 'one\ntwo\n', 'other.ts': long, 'extra.ts': 'extra\n' });
  try {
    const fs = new NodeFileSystem();
    const built = await buildAttachedMessage(
      'Q',
      [chip(dir, 'big.ts', [11, 400]), chip(dir, 'small.ts', [1, 9]), chip(dir, 'gone.ts'), chip(dir, 'other.ts'), chip(dir, 'extra.ts')],
      fs,
      never,
      { maxChipChars: 2_000, maxTotalChars: 2_500 },
    );
    const lines = built.message.split('\n');
    const header = lines.find((l) => l.startsWith('big.ts:'))!;
    // 2,000 characters hold 40 lines of 49-50 characters.
    assert.match(header, /^big\.ts:11-50 — clipped to \d+ characters: lines 11-50 of 11-400 shown; read_file can read the rest$/);
    assert.ok(built.message.includes('line 50 x') && !built.message.includes('line 51 x'));
    // The editor's line count: a final newline starts an empty third line.
    assert.ok(lines.includes('small.ts:1-3 — the file now has 3 lines'), built.message);
    assert.ok(lines.some((l) => /^gone\.ts — could not be read: ENOENT/.test(l)), built.message);
    // The whole file, clipped to what is left of the message's budget; then no room for more.
    assert.ok(lines.some((l) => /^other\.ts:1-\d+ — clipped to \d+ characters: lines 1-\d+ of 1-401 shown/.test(l)), built.message);
    assert.ok(lines.includes('extra.ts — not included: the message is already long; read_file can read it'), built.message);
    assert.ok(built.message.length < 2_500 + 1_000, 'the code stays within the budget (headers and notes aside)');
    assert.deepEqual(built.reads.map((r) => r.path), ['big.ts', 'small.ts', 'other.ts']);
    assert.deepEqual(built.reads.slice(0, 2), [
      { path: 'big.ts', range: { start: 11, end: 50 } },
      { path: 'small.ts', range: { start: 1, end: 3 } },
    ]);
    assert.ok(built.message.endsWith('\n\nQ'));
    // Cancelled before reading: nothing is built.
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(buildAttachedMessage('Q', [chip(dir, 'small.ts')], fs, abort.signal));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
