// `localharness query`: the indexed chunks that best match a text, best first — what `run` would retrieve.
import { existsSync } from 'node:fs';
import type { RetrievedChunk } from '../core/knowledge/types';
import { NodeFileSystem } from '../node/nodeFileSystem';
import { UsageError, type QueryOptions } from './args';
import { defaultDbPath } from './dbPath';
import { checkedWorkspace, providerFor, type KnowledgeIo } from './indexCommand';

/** Returns the exit code: 0 printed (possibly nothing matched), 1 no index to ask. */
export async function queryCommand(options: QueryOptions, io: KnowledgeIo, signal: AbortSignal): Promise<number> {
  const workspace = checkedWorkspace(options.workspace);
  const dbPath = options.db ?? defaultDbPath(process.env);
  if (!dbPath) throw new UsageError('query needs --db FILE (or LOCALHARNESS_DB): the database `localharness index` stored the index in');
  const warn = (m: string) => void io.stderr.write(`localharness: ${m}\n`);
  // Opening a missing file would create an empty database and answer "nothing found": say what is wrong instead.
  if (!existsSync(dbPath)) {
    warn(`${dbPath} does not exist; build an index first: localharness index --db ${dbPath} PATH...`);
    return 1;
  }

  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(dbPath);
  try {
    for (const notice of store.notices) warn(notice.message);
    const knowledgeStore = store.knowledgeFor(workspace);
    if (knowledgeStore.listFiles().length === 0) {
      warn(`the index in ${dbPath} is empty for the workspace ${workspace}; add files with: localharness index --db ${dbPath} --workspace ${workspace} PATH...`);
      return 1;
    }
    const { createKnowledge, indexEmbedModel } = await import('../indexing/knowledge');
    // The vectors in the cache were made with the index's model: asking with another would re-embed everything.
    const embedModel = options.embedModel?.trim() || indexEmbedModel(knowledgeStore);
    const { retriever } = createKnowledge({
      store: knowledgeStore,
      vectors: store.vectors,
      provider: providerFor(options, (message) => io.stderr.write(`localharness: ${message}\n`)),
      model: '',
      embedModel,
      fs: new NodeFileSystem(),
      workspace,
      onNotice: warn,
    });
    const retrieval = await retriever.retrieve(options.text, { k: options.k, signal });
    if (options.json) {
      for (const item of retrieval.items) io.stdout.write(JSON.stringify(jsonLine(item, retrieval.method)) + '\n');
    } else if (retrieval.items.length === 0) {
      io.stdout.write('Nothing in the index matches.\n');
    } else {
      for (const item of retrieval.items) io.stdout.write(textLines(item));
    }
    return 0;
  } finally {
    await store.close();
  }
}

function jsonLine(item: RetrievedChunk, method: string): Record<string, unknown> {
  return {
    rank: item.rank,
    file: item.file,
    startLine: item.startLine,
    endLine: item.endLine,
    score: Number(item.score.toFixed(4)),
    ...(item.name && { name: item.name }),
    ...(item.summary && { summary: item.summary }),
    neighbours: item.neighbours.map((n) => ({
      file: n.file,
      startLine: n.startLine,
      endLine: n.endLine,
      ...(n.name && { name: n.name }),
      relation: n.relation,
    })),
    why: item.why,
    method,
  };
}

function textLines(item: RetrievedChunk): string {
  const name = item.name ? `  ${item.name}` : '';
  const lines = [`${item.rank}. ${item.file}:${item.startLine}-${item.endLine}${name}  (${item.score.toFixed(3)}; ${item.why})`];
  if (item.summary) lines.push(`   ${item.summary}`);
  for (const n of item.neighbours) lines.push(`   ↳ ${n.file}:${n.startLine}-${n.endLine}${n.name ? ` ${n.name}` : ''} (${n.relation})`);
  return lines.join('\n') + '\n';
}
