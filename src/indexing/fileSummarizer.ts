// Full indexing's reading of a file: the model summarizes the file and each chunk and names the entities and
// relations it sees, as structured output validated with zod (one retry with the validation errors).
import type { ChatProvider } from '../core/provider';
import { SUMMARY_MISMATCH_NOTE, type FileSummarizer, type FileSummary, type FileSummaryInput } from '../core/knowledge/types';
import { structuredCall } from '../core/structured/structuredCall';
import { FILE_SUMMARY_REPLY, type FileSummaryReply } from './fileSummarySchema';
import { buildSummaryPrompt } from './fileSummaryPrompt';
import { plural } from '../shared/format';
import { alignChunkSummaries, checkEntityLines, checkRelationLines, chunkNames, lineTexts } from './summaryAlignment';

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
  async summarize(input: FileSummaryInput, signal: AbortSignal): Promise<FileSummary> {
    const o = this.options;
    const prompt = buildSummaryPrompt(input, o.maxPromptChars ?? DEFAULT_SUMMARY_PROMPT_CHARS);
    const { value } = await structuredCall({
      provider: o.provider,
      model: o.model,
      messages: prompt.messages,
      schema: FILE_SUMMARY_REPLY,
      name: FILE_SUMMARY_FORMAT_NAME,
      signal,
      // Between turns the indexer summarizes the files the chat read: never in the chat's cache slot.
      cacheSlot: 'side',
      temperature: o.temperature ?? DEFAULT_SUMMARY_TEMPERATURE,
      ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
      ...(o.contextSize !== undefined && { contextSize: o.contextSize }),
      ...(o.retries !== undefined && { retries: o.retries }),
    });
    return toFileSummary(value, input);
  }
}

/**
 * The validated reply → the contract's shape, checked against the chunks: each chunk summary placed on the chunk
 * it describes (or dropped), entity lines on their declarations; what had to be corrected is said in `notes`.
 */
export function toFileSummary(reply: FileSummaryReply, input: Pick<FileSummaryInput, 'chunks' | 'outline'>): FileSummary {
  const { chunks, outline } = input;
  const aligned = alignChunkSummaries(
    reply.chunks.map((c) => ({ chunk: c.chunk, startLine: c.start_line, summary: c.summary })),
    chunks,
    chunkNames(chunks, outline),
  );
  const lines = lineTexts(chunks);
  const entities = checkEntityLines(reply.entities.map((e) => ({ name: e.name, kind: e.kind, line: e.line })), lines, outline);
  const notes = [
    ...(aligned.realigned ? [`${plural(aligned.realigned, 'chunk summary', 'chunk summaries')} moved to the chunk they describe (the model numbered the chunks its own way)`] : []),
    ...(aligned.dropped ? [`${plural(aligned.dropped, 'chunk summary', 'chunk summaries')} dropped: no chunk matched ${aligned.dropped === 1 ? 'it' : 'them'} for certain`] : []),
    ...(entities.moved ? [`${plural(entities.moved, 'entity line', 'entity lines')} corrected to the declaration`] : []),
    ...(entities.dropped ? [`${plural(entities.dropped, 'entity', 'entities')} dropped: not found in the file`] : []),
  ];
  return {
    summary: reply.summary,
    chunks: aligned.chunks,
    entities: entities.entities,
    relations: checkRelationLines(
      reply.relations.map((r) => ({ from: r.from, kind: r.kind, to: r.to, ...(r.line !== undefined && { line: r.line }) })),
      lines,
    ),
    ...(notes.length > 0 && { notes: [`${SUMMARY_MISMATCH_NOTE}: ${notes.join('; ')}.`] }),
  };
}
