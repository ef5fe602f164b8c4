// The indexing queue on the agent's real event stream, with real files in a temp workspace (NodeFileSystem),
// the real Indexer and chunker, and the in-memory knowledge store: files the agent read are offered after the
// turn — never during it — one at a time, and every choice, dismissal, stale file and "never" type is honoured.
import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../../src/core/agent/events';
import { chunkText } from '../../../src/core/knowledge/chunker';
import { Indexer } from '../../../src/indexing/indexer';
import { IndexQueue, fileType, type QueueChoice, type QueueEntry, type QueueMode } from '../../../src/indexing/indexQueue';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { MemoryKnowledgeStore } from '../../helpers/knowledge/memoryKnowledgeStore';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

const SOURCE = `export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n\nexport function loadApp() {\n  return parseConfig('{}');\n}\n`;
const GUIDE = `# Guide\n\nHow to configure the app.\n\n## Options\n\nSet the port.\n`;

interface Asked {
  path: string;
  index: number;
  total: number;
}

function setup(options: { mode?: QueueMode; answers?: Array<QueueChoice | undefined>; never?: string[] } = {}) {
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-queue-'));
  roots.push(ws);
  mkdirSync(path.join(ws, 'src'));
  mkdirSync(path.join(ws, 'docs'));
  writeFileSync(path.join(ws, 'src/config.ts'), SOURCE);
  writeFileSync(path.join(ws, 'docs/guide.md'), GUIDE);
  writeFileSync(path.join(ws, 'docs/other.md'), '# Other\n\nMore words.\n');
  const fs = new NodeFileSystem();
  const store = new MemoryKnowledgeStore();
  const indexer = new Indexer({ fs, workspace: ws, store, chunker: chunkText });
  const asked: Asked[] = [];
  const notes: string[] = [];
  const lengths: number[] = [];
  const never = new Set(options.never ?? []);
  const added: string[] = [];
  const answers = [...(options.answers ?? [])];
  let mode: QueueMode = options.mode ?? 'ask';
  const queue = new IndexQueue({
    indexer,
    store,
    fs,
    mode: () => mode,
    neverTypes: { has: (t) => never.has(t), add: (t) => void (never.add(t), added.push(t)) },
    ask: async (entry: QueueEntry, position) => {
      asked.push({ path: entry.path, ...position });
      return answers.shift();
    },
    onNote: (m) => notes.push(m),
    onChange: (n) => lengths.push(n),
  });
  return { ws, fs, store, indexer, queue, asked, notes, lengths, added, never, setMode: (m: QueueMode) => (mode = m) };
}

let nextId = 0;
/** The events a turn emits when the model reads these files (a path may fail: `ok: false`). */
function turn(reads: Array<{ path: string; ok?: boolean; tool?: string }>): AgentEvent[] {
  const events: AgentEvent[] = [{ type: 'turn_start', turnId: `t${nextId}`, message: 'look at the config' }, { type: 'round_start', round: 1 }];
  for (const r of reads) {
    const id = `call_${nextId++}`;
    const name = r.tool ?? 'read_file';
    events.push({ type: 'tool_call', id, name, arguments: { path: r.path } });
    events.push({ type: 'tool_result', id, name, ok: r.ok ?? true, content: r.ok === false ? 'File does not exist.' : '1| …', durationMs: 3 });
  }
  events.push({ type: 'text', text: 'Done.' });
  return events;
}
const END: AgentEvent = { type: 'turn_end', reason: 'completed' };

async function play(queue: IndexQueue, events: AgentEvent[]): Promise<void> {
  for (const e of events) queue.observe(e);
  await queue.settled();
}

describe('IndexQueue', () => {
  beforeEach(() => {
    nextId = 0;
  });

  it('queues successful read_file results only, and asks after the turn ends, one file at a time, in order', async () => {
    const t = setup({ answers: [{ kind: 'full' }, { kind: 'metadata' }] });
    await play(t.queue, turn([{ path: 'src/config.ts' }, { path: 'missing.ts', ok: false }, { path: 'docs', tool: 'list_directory' }, { path: path.join(t.ws, 'docs/guide.md') }, { path: 'src/config.ts' }]));
    assert.deepEqual(t.queue.entries().map((e) => e.path), ['src/config.ts', 'docs/guide.md'], 'a file read twice is queued once');
    assert.equal(t.asked.length, 0, 'nothing is asked while the turn runs');
    assert.deepEqual(t.lengths, [1, 2]);

    await play(t.queue, [END]);
    assert.deepEqual(t.asked, [
      { path: 'src/config.ts', index: 1, total: 2 },
      { path: 'docs/guide.md', index: 2, total: 2 },
    ]);
    assert.equal(t.queue.length, 0);
    assert.deepEqual(t.lengths, [1, 2, 1, 0]);
    const config = t.store.getFile('src/config.ts');
    assert.equal(config?.state, 'indexed');
    assert.equal(config?.mode, 'embed', 'without a summarizer "Index fully" stores chunks (and vectors when there is an embedder)');
    assert.ok(config!.chunkCount >= 1);
    assert.equal(t.store.getFile('docs/guide.md')?.state, 'metadata');
    assert.deepEqual(t.notes, []);
  });

  it('"Index lines…" indexes only that range; "Skip" indexes nothing', async () => {
    const t = setup({ answers: [{ kind: 'lines', range: { startLine: 5, endLine: 7 } }, { kind: 'skip' }] });
    await play(t.queue, [...turn([{ path: 'src/config.ts' }, { path: 'docs/guide.md' }]), END]);
    const file = t.store.getFile('src/config.ts');
    assert.deepEqual(file?.range, { startLine: 5, endLine: 7 });
    const chunks = t.store.chunks('src/config.ts');
    assert.ok(chunks.length >= 1 && chunks.every((c) => c.startLine >= 5 && c.endLine <= 7), JSON.stringify(chunks));
    assert.equal(t.store.getFile('docs/guide.md'), undefined);
    assert.equal(t.queue.length, 0);
  });

  it('a dismissed question leaves that file and the rest queued, and they are offered again after the next turn', async () => {
    const t = setup({ answers: [undefined, { kind: 'skip' }, { kind: 'metadata' }] });
    await play(t.queue, [...turn([{ path: 'src/config.ts' }, { path: 'docs/guide.md' }]), END]);
    assert.deepEqual(t.asked.map((a) => a.path), ['src/config.ts'], 'dismissal stops the round of questions');
    assert.deepEqual(t.queue.entries().map((e) => e.path), ['src/config.ts', 'docs/guide.md']);

    await play(t.queue, [...turn([]), END]);
    assert.deepEqual(t.asked.map((a) => `${a.path} ${a.index}/${a.total}`), ['src/config.ts 1/2', 'src/config.ts 1/2', 'docs/guide.md 2/2']);
    assert.equal(t.store.getFile('src/config.ts'), undefined, 'skipped');
    assert.equal(t.store.getFile('docs/guide.md')?.state, 'metadata');
  });

  it('drops a file that changed or was deleted after the agent read it, with a note, without asking', async () => {
    const t = setup({ answers: [{ kind: 'metadata' }] });
    await play(t.queue, turn([{ path: 'src/config.ts' }, { path: 'docs/guide.md' }, { path: 'docs/other.md' }]));
    writeFileSync(path.join(t.ws, 'src/config.ts'), SOURCE + '// edited\n');
    unlinkSync(path.join(t.ws, 'docs/guide.md'));
    await play(t.queue, [END]);
    assert.deepEqual(t.asked.map((a) => a.path), ['docs/other.md']);
    assert.equal(t.notes.length, 2, t.notes.join('\n'));
    assert.match(t.notes[0]!, /src\/config\.ts .*changed after the agent read it/);
    assert.match(t.notes[1]!, /docs\/guide\.md .*deleted after the agent read it/);
    assert.equal(t.store.getFile('src/config.ts'), undefined);
    assert.equal(t.store.getFile('docs/other.md')?.state, 'metadata');
  });

  it('"Never for this file type" remembers the type, drops queued files of that type and queues none later', async () => {
    const t = setup({ answers: [{ kind: 'never-type' }, { kind: 'skip' }] });
    await play(t.queue, [...turn([{ path: 'docs/guide.md' }, { path: 'src/config.ts' }, { path: 'docs/other.md' }]), END]);
    assert.deepEqual(t.added, ['.md']);
    assert.deepEqual(t.asked.map((a) => a.path), ['docs/guide.md', 'src/config.ts'], 'other.md was dropped with its type');
    await play(t.queue, turn([{ path: 'docs/other.md' }]));
    assert.equal(t.queue.length, 0);
    assert.equal(fileType('src/Makefile'), 'Makefile');
    assert.equal(fileType('src/A.TS'), '.ts');
  });

  it('queues nothing when off, for never-indexed types, outside the workspace, or when the file is indexed as it is', async () => {
    const t = setup({ mode: 'off', never: ['.md'] });
    await play(t.queue, turn([{ path: 'src/config.ts' }]));
    assert.equal(t.queue.length, 0, 'off');
    t.setMode('ask');
    await play(t.queue, turn([{ path: 'docs/guide.md' }, { path: '../outside.ts' }, { path: '/etc/hostname' }]));
    assert.equal(t.queue.length, 0, 'never type and outside paths');

    const first = await t.indexer.index({ path: 'src/config.ts', mode: 'embed' }, { signal: new AbortController().signal });
    assert.equal(first.outcome, 'indexed');
    await play(t.queue, turn([{ path: 'src/config.ts' }]));
    assert.equal(t.queue.length, 0, 'already indexed with the same content');
    writeFileSync(path.join(t.ws, 'src/config.ts'), SOURCE + 'export const port = 8080;\n');
    await play(t.queue, turn([{ path: 'src/config.ts' }]));
    assert.deepEqual(t.queue.entries().map((e) => e.path), ['src/config.ts'], 'changed since it was indexed');
  });

  it('auto mode indexes every queued file after the turn without asking', async () => {
    const t = setup({ mode: 'auto' });
    await play(t.queue, turn([{ path: 'src/config.ts' }, { path: 'docs/guide.md' }]));
    assert.equal(t.store.listFiles().length, 0, 'not during the turn');
    await play(t.queue, [END]);
    assert.equal(t.asked.length, 0);
    assert.deepEqual(t.store.listFiles().map((f) => [f.path, f.mode, f.state]).sort(), [
      ['docs/guide.md', 'embed', 'indexed'],
      ['src/config.ts', 'embed', 'indexed'],
    ]);
  });

  it('stops asking when a new turn starts during the questions; the rest waits for that turn to end', async () => {
    const t = setup();
    let release: (c: QueueChoice) => void = () => undefined;
    const queue = new IndexQueue({
      indexer: t.indexer,
      store: t.store,
      fs: t.fs,
      mode: () => 'ask',
      neverTypes: { has: () => false, add: () => undefined },
      ask: (entry) => {
        t.asked.push({ path: entry.path, index: 0, total: 0 });
        return new Promise((resolve) => (release = resolve));
      },
    });
    for (const e of [...turn([{ path: 'src/config.ts' }, { path: 'docs/guide.md' }]), END]) queue.observe(e);
    while (t.asked.length === 0) await new Promise((r) => setTimeout(r, 5));
    queue.observe({ type: 'turn_start', turnId: 'next', message: 'another question' });
    release({ kind: 'metadata' });
    await queue.settled();
    assert.deepEqual(t.asked.map((a) => a.path), ['src/config.ts']);
    assert.deepEqual(queue.entries().map((e) => e.path), ['docs/guide.md']);
    queue.observe(END);
    while (t.asked.length < 2) await new Promise((r) => setTimeout(r, 5));
    release({ kind: 'skip' });
    await queue.settled();
    assert.equal(queue.length, 0);
  });

  it('clear() empties the queue and reports the length', async () => {
    const t = setup();
    await play(t.queue, turn([{ path: 'src/config.ts' }]));
    t.queue.clear();
    assert.equal(t.queue.length, 0);
    assert.deepEqual(t.lengths, [1, 0]);
  });
});
