// Composes the tool pre-filter for a session (CLI and editor alike): the selector, its embedder (when an
// embedding model is set) with the vector cache, and the `tool_search` tool that lets the model ask for more.
import type { VectorCachePort } from '../core/embeddings';
import type { ChatProvider } from '../core/provider';
import type { ToolRegistry } from '../core/tools/registry';
import type { RiskLevel } from '../core/tools/tool';
import { ToolSelector } from '../core/tools/selection/toolSelector';
import { TOOL_SEARCH_TOOL_NAME, createToolSearchTool } from '../core/tools/selection/toolSearchTool';
import { CachedEmbedder } from './embeddingClient';

export interface ToolPreFilterOptions {
  provider: ChatProvider;
  registry: ToolRegistry;
  allowedRisks?: readonly RiskLevel[];
  /** At most this many tools per request when not all fit (default 15). */
  maxOffered?: number;
  /** Embedding model on the same server; empty or absent: keyword ranking. */
  embedModel?: string;
  /** Where vectors outlive the process (the session database). */
  vectors?: VectorCachePort;
  onCacheError?: (err: unknown) => void;
}

export function createToolPreFilter(options: ToolPreFilterOptions): ToolSelector {
  const model = options.embedModel?.trim();
  const embedder = model
    ? new CachedEmbedder({
        provider: options.provider,
        model,
        ...(options.vectors && { cache: options.vectors }),
        ...(options.onCacheError && { onCacheError: options.onCacheError }),
      })
    : undefined;
  const selector = new ToolSelector({
    ...(options.maxOffered !== undefined && { settings: { maxOffered: options.maxOffered } }),
    ...(embedder && { embedder }),
  });
  // One tool_search per registry, bound to the newest selector (the editor rebuilds sessions on one registry).
  const { registry, allowedRisks } = options;
  registry.unregister(TOOL_SEARCH_TOOL_NAME);
  registry.register(createToolSearchTool(selector, () => registry.definitions(allowedRisks)));
  return selector;
}
