// Full indexing's reading of a file: the model summarizes the file and each chunk and names the entities and
// relations it sees, as structured output validated with zod (one retry with the validation errors).
import type { ChatProvider } from '../core/provider';
import { SUMMARY_MISMATCH_NOTE, type FileSummarizer, type FileSummary, type ChunkDraft } from '../core/knowledge/types';
import { structuredCall } from '../core/structured/structuredCall';
import { outlineText } from '../core/knowledge/chunker';
import { FILE_SUMMARY_REPLY, type FileSummaryReply } from './fileSummarySchema';
import { buildSummaryPrompt } from './fileSummaryPrompt';
import { alignChunkSummaries, checkEntityLines, checkRelationLines, chunkNames } from './summaryAlignment';

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
    return toFileSummary(value, input.chunks, input.path);
  }
}

/**
 * The validated reply → the contract's shape, checked against the chunks: each chunk summary placed on the chunk
 * it describes (or dropped), entity lines on their declarations; what had to be corrected is said in `notes`.
 */
export function toFileSummary(reply: FileSummaryReply, chunks: readonly ChunkDraft[], path: string): FileSummary {
  const outline = outlineText(fileText(chunks), path);
  const aligned = alignChunkSummaries(
    reply.chunks.map((c) => ({ chunk: c.chunk, startLine: c.start_line, summary: c.summary })),
    chunks,
    chunkNames(chunks, outline),
  );
  const entities = checkEntityLines(reply.entities.map((e) => ({ name: e.name, kind: e.kind, line: e.line })), chunks, outline);
  const notes = [
    ...(aligned.realigned ? [`${count(aligned.realigned, 'chunk summary', 'chunk summaries')} moved to the chunk they describe (the model numbered the chunks its own way)`] : []),
    ...(aligned.dropped ? [`${count(aligned.dropped, 'chunk summary', 'chunk summaries')} dropped: no chunk matched ${aligned.dropped === 1 ? 'it' : 'them'} for certain`] : []),
    ...(entities.moved ? [`${count(entities.moved, 'entity line', 'entity lines')} corrected to the declaration`] : []),
    ...(entities.dropped ? [`${count(entities.dropped, 'entity', 'entities')} dropped: not found in the file`] : []),
  ];
  return {
    summary: reply.summary,
    chunks: aligned.chunks,
    entities: entities.entities,
    relations: checkRelationLines(
      reply.relations.map((r) => ({ from: r.from, kind: r.kind, to: r.to, ...(r.line !== undefined && { line: r.line }) })),
      chunks,
    ),
    ...(notes.length > 0 && { notes: [`${SUMMARY_MISMATCH_NOTE}: ${notes.join('; ')}.`] }),
  };
}

/** The chunks' lines at their line numbers (blank where no chunk is), for the outline of what each declares. */
function fileText(chunks: readonly ChunkDraft[]): string {
  const lines: string[] = [];
  for (const c of chunks) c.text.split(/\r?\n/).forEach((text, i) => (lines[c.startLine - 1 + i] = text));
  return Array.from(lines, (l) => l ?? '').join('\n');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
