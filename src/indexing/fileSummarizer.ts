// Full indexing's reading of a file: the model summarizes the file and each chunk and names the entities and
// relations it sees, as structured output validated with zod (one retry with the validation errors).
import type { ChatProvider } from '../core/provider';
import type { FileSummarizer, FileSummary, ChunkDraft } from '../core/knowledge/types';
import { structuredCall } from '../core/structured/structuredCall';
import { FILE_SUMMARY_REPLY, type FileSummaryReply } from './fileSummarySchema';
import { buildSummaryPrompt } from './fileSummaryPrompt';

/** About 2k tokens of prompt: with the answer and one retry it fits a model running a 4k window. */
export const DEFAULT_SUMMARY_PROMPT_CHARS = 6000;
export const DEFAULT_SUMMARY_TEMPERATURE = 0.1;
export const FILE_SUMMARY_FORMAT_NAME = 'file_summary';

export interface FileSummarizerOptions {
  provider: ChatProvider;
  model: string;
  /** Upper bound for the prompt's characters (chunk texts are clipped to fit); default 6000. */
  maxPromptChars?: number;
  /** Default 0.1: summaries should be plain and repeatable. */
  temperature?: number;
  maxTokens?: number;
  contextSize?: number;
  /** Extra attempts after invalid JSON; default 1. */
  retries?: number;
}

export class ModelFileSummarizer implements FileSummarizer {
  constructor(private readonly options: FileSummarizerOptions) {}

  /** Throws StructuredOutputError when the reply stays invalid; provider errors and aborts pass through. */
  async summarize(input: { path: string; language: string; chunks: readonly ChunkDraft[] }, signal: AbortSignal): Promise<FileSummary> {
    const o = this.options;
    const prompt = buildSummaryPrompt(input, o.maxPromptChars ?? DEFAULT_SUMMARY_PROMPT_CHARS);
    const { value } = await structuredCall({
      provider: o.provider,
      model: o.model,
      messages: prompt.messages,
      schema: FILE_SUMMARY_REPLY,
      name: FILE_SUMMARY_FORMAT_NAME,
      signal,
      temperature: o.temperature ?? DEFAULT_SUMMARY_TEMPERATURE,
      ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...(o.retries !== undefined && { retries: o.retries }),
    });
    return toFileSummary(value, input.chunks.length);
  }
}

/** The validated reply → the contract's shape: chunk numbers (1-based in the prompt) become positions. */
export function toFileSummary(reply: FileSummaryReply, chunkCount: number): FileSummary {
  const chunks = new Map<number, string>();
  for (const c of reply.chunks) {
    const index = c.index - 1;
    // A number the prompt never showed is a slip, and the first summary of a chunk wins.
    if (index >= 0 && index < chunkCount && !chunks.has(index)) chunks.set(index, c.summary);
  }
  return {
    summary: reply.summary,
    chunks: [...chunks].sort(([a], [b]) => a - b).map(([index, summary]) => ({ index, summary })),
    entities: reply.entities.map((e) => ({ name: e.name, kind: e.kind, line: e.line })),
    relations: reply.relations.map((r) => ({ from: r.from, kind: r.kind, to: r.to, ...(r.line !== undefined && { line: r.line }) })),
  };
}
