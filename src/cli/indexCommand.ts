// `localharness index`: indexes files and folders of a workspace into the --db file, one line per file.
// A folder contributes its files as search_files sees them (.gitignore honoured, .git and node_modules skipped).
import path from 'node:path';
import { existsSync, statSync } from 'node:fs';
import type { FileSystemPort } from '../core/ports';
import { ProviderError, type ChatProvider } from '../core/provider';
import { walkFiles } from '../core/tools/builtin/walk';
import { PathError } from '../core/workspace/workspaceRoots';
import { NodeFileSystem } from '../node/nodeFileSystem';
import { createProvider } from '../providers/index';
import { requestWaits } from './requestWaits';
import type { Indexer, IndexResult } from '../indexing/indexer';
import { UsageError, type IndexOptions } from './args';
import { defaultDbPath } from './dbPath';

export interface KnowledgeIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

/** Entries a folder walk examines at most (a whole monorepo is not indexed by accident). */
const MAX_WALK_ENTRIES = 200_000;

/** Returns the exit code: 0 all done, 1 a file failed or a named path could not be indexed. */
export async function indexCommand(options: IndexOptions, io: KnowledgeIo, signal: AbortSignal): Promise<number> {
  const workspace = checkedWorkspace(options.workspace);
  const dbPath = options.db ?? defaultDbPath(process.env);
  if (!dbPath) throw new UsageError('index needs --db FILE (or LOCALHARNESS_DB): the index is stored in that database');
  const warn = (m: string) => void io.stderr.write(`localharness: ${m}\n`);
  if (options.remove) return removeFromIndex(options, workspace, dbPath, io, warn);
  const provider = providerFor(options, (message) => io.stderr.write(`localharness: ${message}\n`));

  // Full indexing needs a chat model for the summaries; the other modes never call one.
  let model = '';
  if (options.mode === 'full') {
    model = options.model ?? (await firstModel(provider, signal));
  }
  const embedModel = options.embedModel?.trim() ?? '';
  if (!embedModel && options.mode !== 'metadata') {
    warn('no --embed-model: chunks are stored without vectors; query and run will rank them by keywords (BM25)');
  }

  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(dbPath);
  try {
    for (const notice of store.notices) warn(notice.message);
    const { createKnowledge } = await import('../indexing/knowledge');
    const fs = new NodeFileSystem();
    const { indexer } = createKnowledge({ store: store.knowledgeFor(workspace), vectors: store.vectors, provider, model, embedModel, fs, workspace, onNotice: warn });

    let failed = false;
    const totals = { indexed: 0, metadata: 0, unchanged: 0, refused: 0, failed: 0, chunks: 0, modelMs: 0 };
    const started = performance.now();
    const seen = new Set<string>();
    for (const given of options.paths) {
      const targets = await expand(indexer, fs, workspace, given, signal, path.resolve(dbPath));
      if ('error' in targets) {
        failed = true;
        print(io, options.json, { path: given, outcome: 'refused', reason: targets.error, chunks: 0, modelMs: 0, waitedMs: 0, totalMs: 0, notices: [] });
        totals.refused++;
        continue;
      }
      if (targets.files.length === 0) warn(`${given}: no files to index`);
      if (targets.truncated) warn(`${given} has more than ${MAX_WALK_ENTRIES} entries; only the first ${targets.files.length} files are indexed (name subfolders to index the rest)`);
      for (const file of targets.files) {
        if (seen.has(file)) continue;
        seen.add(file);
        signal.throwIfAborted();
        const result = await indexer.index({ path: file, mode: options.mode, force: options.force }, { signal });
        print(io, options.json, result);
        totals[result.outcome]++;
        totals.chunks += result.outcome === 'unchanged' ? 0 : result.chunks;
        totals.modelMs += result.modelMs;
        // A file the walk found may be binary (an image in src/): only named files and real failures count.
        if (result.outcome === 'failed' || (result.outcome === 'refused' && !targets.walked)) failed = true;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    warn(
      `indexed ${totals.indexed}, metadata only ${totals.metadata}, unchanged ${totals.unchanged}, refused ${totals.refused}, failed ${totals.failed}` +
        ` (${totals.chunks} chunks) in ${seconds.toFixed(1)} s, ${(totals.modelMs / 1000).toFixed(1)} s of it waiting on the model; stored in ${dbPath}`,
    );
    return failed ? 1 : 0;
  } finally {
    await store.close();
  }
}

export function checkedWorkspace(given: string): string {
  const workspace = path.resolve(given);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  return workspace;
}

export function providerFor(options: Pick<IndexOptions, 'provider' | 'baseUrl' | 'apiKey' | 'firstByteTimeoutMs'>, say: (message: string) => void): ChatProvider {
  return createProvider({
    provider: options.provider,
    firstByteTimeoutMs: options.firstByteTimeoutMs,
    ...requestWaits(process.env, say),
    ...(options.baseUrl && { baseUrl: options.baseUrl }),
    ...(options.apiKey && { apiKey: options.apiKey }),
  });
}

async function firstModel(provider: ChatProvider, signal: AbortSignal): Promise<string> {
  let name: string | undefined;
  try {
    name = (await provider.listModels(signal))[0]?.name;
  } catch (e) {
    throw new Error(e instanceof ProviderError ? e.message : `could not list models: ${(e as Error).message}`);
  }
  if (!name) throw new Error(`the server at ${provider.baseUrl} has no models; pass --model NAME, or --mode embed for no summaries`);
  return name;
}

/** A named file, or the files of a named folder; an error for paths outside the workspace or missing ones. */
async function expand(
  indexer: Indexer,
  fs: FileSystemPort,
  workspace: string,
  given: string,
  signal: AbortSignal,
  /** The database and its companions (journal, lock) are never indexed, even inside the folder. */
  dbPath: string,
): Promise<{ files: string[]; walked: boolean; truncated?: boolean } | { error: string }> {
  let abs: string;
  try {
    ({ abs } = await indexer.resolve(given));
  } catch (err) {
    return { error: err instanceof PathError ? err.message : String((err as Error)?.message ?? err) };
  }
  const stat = await fs.lstat(abs);
  if (!stat) return { error: `${given} does not exist in ${workspace}` };
  if (stat.kind !== 'directory') return { files: [abs], walked: false };
  const files: string[] = [];
  const stats = { entries: 0, truncated: false };
  for await (const file of walkFiles({ fs, folderRoot: workspace, start: abs, maxEntries: MAX_WALK_ENTRIES, signal }, stats)) {
    if (!file.abs.startsWith(dbPath)) files.push(file.abs);
  }
  signal.throwIfAborted();
  return { files, walked: true, truncated: stats.truncated };
}

function print(io: KnowledgeIo, json: boolean, r: IndexResult): void {
  if (json) {
    io.stdout.write(
      JSON.stringify({
        file: r.path,
        outcome: r.outcome,
        chunks: r.chunks,
        ...(r.file && { state: r.file.state, mode: r.file.mode, language: r.file.language, lines: r.file.lines }),
        ...(r.file?.range && { range: r.file.range }),
        ...(r.file?.embedModel && { embedModel: r.file.embedModel }),
        ...(r.file?.summary && { summary: r.file.summary }),
        ...(r.reason !== undefined && { reason: r.reason }),
        notices: r.notices,
        modelMs: Math.round(r.modelMs),
        totalMs: Math.round(r.totalMs),
      }) + '\n',
    );
    return;
  }
  const detail =
    r.outcome === 'refused' || r.outcome === 'failed'
      ? ` — ${r.reason ?? r.outcome}`
      : ` (${r.chunks} ${r.chunks === 1 ? 'chunk' : 'chunks'}${r.file?.embedModel ? ', vectors' : ''}${r.file?.summary ? ', summary' : ''})` +
        (r.notices.length > 0 ? ` — ${r.notices.join('; ')}` : '');
  io.stdout.write(`${r.outcome.padEnd(9)} ${r.path}${detail}\n`);
}

/** `index --remove PATH…`: named files, or every indexed file under a named folder, leave the index. Needs no server. */
async function removeFromIndex(options: IndexOptions, workspace: string, dbPath: string, io: KnowledgeIo, warn: (m: string) => void): Promise<number> {
  if (!existsSync(dbPath)) {
    warn(`${dbPath} does not exist: nothing is indexed there`);
    return 1;
  }
  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(dbPath);
  try {
    for (const notice of store.notices) warn(notice.message);
    const knowledge = store.knowledgeFor(workspace);
    const indexed = knowledge.listFiles().map((f) => f.path);
    let missing = false;
    let removed = 0;
    for (const given of options.paths) {
      const rel = path.relative(workspace, path.resolve(workspace, given)).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        warn(`${given} is outside the workspace ${workspace}`);
        missing = true;
        continue;
      }
      const targets = rel === '' ? indexed : indexed.filter((p) => p === rel || p.startsWith(`${rel}/`));
      if (targets.length === 0) {
        warn(`${given} is not in the index of ${workspace}`);
        missing = true;
        continue;
      }
      for (const target of targets) {
        if (!knowledge.removeFile(target)) continue;
        removed++;
        io.stdout.write(options.json ? `${JSON.stringify({ path: target, outcome: 'removed' })}\n` : `removed    ${target}\n`);
      }
    }
    warn(`removed ${removed} file(s) from the index in ${dbPath}`);
    return missing ? 1 : 0;
  } finally {
    await store.close();
  }
}
