// The editor's KnowledgeService over a real session database (sql.js) and the real indexing parts: a chat turn
// without an index builds nothing and calls nobody; indexing builds the parts once and tells the listeners; the
// retriever then finds the file; changed settings rebuild; a failed build is tried again; removal is reported.
// No model server is needed: `embed` mode without an embedding model stores chunks only, and retrieval uses keywords.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKnowledge } from '../../../src/indexing/knowledge';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { createProvider } from '../../../src/providers';
import { KnowledgeService, NO_DATABASE_TEXT, NO_FOLDER_TEXT, type BuildInput } from '../../../src/editor/knowledge/knowledgeService';

const SOURCE = `export function parseShippingLabel(text: string): string[] {
  return text.split('\\n').map((line) => line.trim());
}

export function printShippingLabel(lines: string[]): string {
  return lines.join(' / ');
}
`;

async function setup(t: { after: (fn: () => void | Promise<void>) => void }) {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-know-')));
  const workspace = path.join(dir, 'ws');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, 'src/labels.ts'), SOURCE);
  const db = await SessionStore.open(path.join(dir, 'sessions.db'));
  t.after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Never asked for anything: nothing in these tests calls the model.
  const provider = createProvider({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9' });
  const calls = { connect: 0, build: 0, notices: [] as string[] };
  const settings = { key: 'a', fail: false, folder: workspace as string | undefined, database: true };
  const service = new KnowledgeService({
    openStore: async () => (settings.database && settings.folder ? { store: db.knowledgeFor(settings.folder), vectors: db.vectors } : undefined),
    connectionKey: () => settings.key,
    connect: async () => {
      calls.connect++;
      if (settings.fail) throw new Error('the model server did not answer');
      return { provider, model: '', embedModel: '' };
    },
    build: async (input: BuildInput) => {
      calls.build++;
      return createKnowledge(input);
    },
    fs: new NodeFileSystem(),
    workspace: () => settings.folder,
    waitForIdle: async () => undefined,
    onNotice: (message) => calls.notices.push(message),
  });
  return { service, calls, settings, workspace, db };
}

test('with nothing indexed a turn builds nothing; indexing builds once, tells listeners, and retrieval finds the file', async (t) => {
  const { service, calls, workspace } = await setup(t);
  const signal = new AbortController().signal;
  const empty = await service.session.retriever!.retrieve('how are shipping labels parsed?', { signal });
  assert.deepEqual(empty, { query: 'how are shipping labels parsed?', method: 'keywords', items: [] });
  assert.equal(await service.session.summaries!.summaryFor('src/labels.ts', signal), undefined);
  assert.deepEqual([calls.connect, calls.build], [0, 0], 'no index: no connection, no build');

  let changes = 0;
  service.onDidChange(() => changes++);
  const result = await service.index({ path: path.join(workspace, 'src/labels.ts'), mode: 'embed' }, { signal });
  assert.equal(result.outcome, 'indexed');
  assert.equal(result.path, 'src/labels.ts');
  assert.ok(result.chunks >= 1);
  assert.equal(changes, 1);
  assert.equal(await service.hasIndex(), true);

  const found = await service.session.retriever!.retrieve('parse shipping label text', { signal });
  assert.equal(found.method, 'keywords');
  assert.equal(found.items[0]?.file, 'src/labels.ts');
  assert.deepEqual([calls.connect, calls.build], [1, 1], 'built once, reused by the retriever');
});

test('changed settings rebuild the parts; a failed build is tried again next time', async (t) => {
  const { service, calls, settings } = await setup(t);
  const signal = new AbortController().signal;
  await service.parts(signal);
  await service.parts(signal);
  assert.equal(calls.build, 1);
  settings.key = 'b';
  await service.parts(signal);
  assert.equal(calls.build, 2);
  service.invalidate();
  settings.fail = true;
  await assert.rejects(service.parts(signal), /the model server did not answer/);
  settings.fail = false;
  await service.parts(signal);
  assert.equal(calls.build, 3);
});

test('removal reports the files that were indexed; paths outside the folder have no relative form', async (t) => {
  const { service, workspace } = await setup(t);
  const signal = new AbortController().signal;
  await service.index({ path: 'src/labels.ts', mode: 'metadata' }, { signal });
  let changes = 0;
  service.onDidChange(() => changes++);
  assert.deepEqual(await service.remove(['src/labels.ts', 'src/missing.ts']), ['src/labels.ts']);
  assert.equal(changes, 1);
  assert.deepEqual(await service.remove(['src/labels.ts']), []);
  assert.equal(changes, 1, 'nothing removed, nothing to refresh');
  assert.equal(await service.hasIndex(), false);

  assert.equal(service.relativePath(path.join(workspace, 'src', 'labels.ts')), 'src/labels.ts');
  assert.equal(service.relativePath(workspace), undefined);
  assert.equal(service.relativePath(path.join(path.dirname(workspace), 'other.ts')), undefined);
});

test('without a folder or a database the reasons are said, and retrieval stays silent', async (t) => {
  const { service, settings, calls } = await setup(t);
  const signal = new AbortController().signal;
  settings.folder = undefined;
  await assert.rejects(service.parts(signal), (err: Error) => err.message === NO_FOLDER_TEXT);
  assert.deepEqual((await service.session.retriever!.retrieve('x', { signal })).items, []);
  settings.folder = '/tmp';
  settings.database = false;
  await assert.rejects(service.parts(signal), (err: Error) => err.message === NO_DATABASE_TEXT);
  await assert.rejects(service.remove(['a.ts']), (err: Error) => err.message === NO_DATABASE_TEXT);
  assert.equal(calls.build, 0);
});
