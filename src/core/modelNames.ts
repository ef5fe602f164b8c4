// How servers name models, and which of the listed ones can chat.
import type { ModelInfo } from './provider';

/** Ollama treats "qwen3" and "qwen3:latest" as the same model. */
export function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/:latest$/, '');
  return norm(a) === norm(b);
}

/** Names that say "embedding model" (Ollama's list carries no capabilities, LM Studio's type does via modelInfo). */
export function looksLikeEmbeddingModel(name: string): boolean {
  return /embed|\bbge\b|bge-|\be5\b|e5-|minilm|\bgte\b|gte-|nomic-embed|arctic-embed/i.test(name);
}

/** Neither reported as embedding-only nor named like an embedding model. */
export function isChatModel(info: Pick<ModelInfo, 'name' | 'capabilities'>): boolean {
  if (info.capabilities?.includes('embedding') && !info.capabilities.includes('completion')) return false;
  return !looksLikeEmbeddingModel(info.name);
}

/** The model used when none is chosen: the first listed one that can chat (undefined when none can). */
export function firstChatModel<T extends Pick<ModelInfo, 'name' | 'capabilities'>>(listed: readonly T[]): T | undefined {
  return listed.find(isChatModel);
}
