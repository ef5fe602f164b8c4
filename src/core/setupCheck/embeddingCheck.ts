// The embedding model for the tool pre-filter and the workspace index: each configured one embeds a few words, or
// says why it cannot; with none configured, listed models that look like embedding models are suggested.
import { EMBEDDING_MODEL_HINT, EmbeddingUnavailableError } from '../embeddings';
import type { ChatProvider } from '../provider';
import type { EmbeddingFinding } from './report';
import { looksLikeEmbeddingModel } from '../modelNames';
import { errorMessage } from '../../shared/format';

export interface EmbeddingModels {
  /** The tool pre-filter's (localharness.tools.embeddingModel, CLI --embed-model). */
  tools?: string;
  /** The workspace index's (localharness.index.embeddingModel; defaults to the tools one). */
  index?: string;
}

export function configuredEmbeddingModels(models: EmbeddingModels): Array<{ name: string; purposes: Array<'tools' | 'index'> }> {
  const out: Array<{ name: string; purposes: Array<'tools' | 'index'> }> = [];
  for (const purpose of ['tools', 'index'] as const) {
    const name = models[purpose]?.trim();
    if (!name) continue;
    const existing = out.find((m) => m.name === name);
    if (existing) existing.purposes.push(purpose);
    else out.push({ name, purposes: [purpose] });
  }
  return out;
}

export async function checkEmbedding(provider: ChatProvider, models: EmbeddingModels, listed: readonly string[], signal: AbortSignal): Promise<EmbeddingFinding> {
  const wanted = configuredEmbeddingModels(models);
  const getOne = provider.id === 'ollama' ? 'Get one with `ollama pull nomic-embed-text`' : 'Load an embedding model on the server (LM Studio: text-embedding-nomic-embed-text-v1.5)';
  if (wanted.length === 0) {
    const candidates = listed.filter(looksLikeEmbeddingModel).slice(0, 5);
    return {
      verdict: 'info',
      models: [],
      ...(candidates.length && { candidates }),
      summary: 'No embedding model is set: tools are chosen and code is retrieved by keywords.',
      details: candidates.length ? [`The server lists ${candidates.join(', ')}, which look like embedding models.`] : [],
      fix: candidates.length
        ? `Set localharness.tools.embeddingModel (CLI --embed-model) to ${candidates[0]} to rank tools and code by meaning.`
        : `${getOne}, then set localharness.tools.embeddingModel (CLI --embed-model) to it.`,
    };
  }
  const results: EmbeddingFinding['models'] = [];
  for (const m of wanted) {
    if (!provider.embed) {
      results.push({ ...m, ok: false, error: 'this server cannot make embeddings' });
      continue;
    }
    try {
      const vectors = await provider.embed(m.name, ['setup check'], signal);
      results.push({ ...m, ok: true, dimensions: vectors[0]?.length ?? 0 });
    } catch (err) {
      if (signal.aborted) throw err;
      const message = err instanceof EmbeddingUnavailableError ? err.message.replace(` ${EMBEDDING_MODEL_HINT}`, '') : errorMessage(err);
      results.push({ ...m, ok: false, error: message });
    }
  }
  const purposeWords = (p: Array<'tools' | 'index'>) => p.map((x) => (x === 'tools' ? 'the tool pre-filter' : 'the workspace index')).join(' and ');
  const details = results.map((r) => (r.ok ? `${r.name} embeds (${r.dimensions} dimensions) for ${purposeWords(r.purposes)}.` : `${r.name} (${purposeWords(r.purposes)}): ${r.error}`));
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) {
    return { verdict: 'ok', models: results, summary: `${results.map((r) => r.name).join(' and ')} ${results.length === 1 ? 'embeds' : 'embed'}: tools and code are ranked by meaning.`, details };
  }
  const names = failed.map((r) => r.name).join(', ');
  const pull = provider.id === 'ollama' ? `Pull it with \`ollama pull ${failed[0]!.name}\`` : 'Load it on the server';
  return {
    verdict: 'limited',
    models: results,
    summary: `The embedding model ${names} is not available: ${failed.map((r) => purposeWords(r.purposes)).join(' and ')} fall${failed.length === 1 && failed[0]!.purposes.length === 1 ? 's' : ''} back to keywords.`,
    details,
    fix: `${pull}, or set the embedding model setting to one the server has (empty: keywords).`,
    reason: `embedding model ${names} missing`,
  };
}
