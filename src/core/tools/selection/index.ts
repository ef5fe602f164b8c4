// The tool pre-filter: ranking, compaction, tool_search and the query helper, from one place.
export { Bm25Index, bm25Document, bm25Scores, topIndices, type Bm25Document, type Bm25Params } from './bm25';
export { compactToolDefinitions, firstSentence } from './compactSchema';
export {
  DEFAULT_ALWAYS_OFFERED,
  parseToolSelectionSettings,
  toolSelectionSettingsSchema,
  type ToolSelectionSettings,
  type ToolSelectionSettingsInput,
} from './toolSelectionSettings';
export { toolQueryFrom, type ToolQueryOptions } from './toolQuery';
export { createToolSearchTool, TOOL_SEARCH_TOOL_NAME } from './toolSearchTool';
export {
  ToolSelector,
  type ToolRanking,
  type ToolSearchHit,
  type ToolSelection,
  type ToolSelectionInput,
  type ToolSelectorOptions,
} from './toolSelector';
export { identifierWords, stem, tokenize, toolEmbeddingText, toolTokens } from './toolText';
