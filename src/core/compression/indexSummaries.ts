// Compression by index summaries (issue 10): before any model is asked to compress, a read_file result whose
// file is in the workspace index becomes that file's summary, its chunk outline and a pointer to read the exact
// lines again. No model call, nothing guessed: the summary was written when the file was indexed, and the port
// only gives one while the file on disk is still what was indexed.
import type { ChatMessage } from '../messages';
import type { IndexSummaryPort, IndexedSummary, LineSpan } from '../knowledge/types';
import { INDEX_SUMMARY_LABEL, clip, markCompressed, oneLine } from './marker';
import { baseToolName, describeMeta, toolResultMeta, type ToolResultMeta } from './metadata';
import type { CompressionScope } from './scope';

export interface IndexSummaryOutcome {
  /** Tool results replaced by their file's summary. */
  messages: number;
  /** Calibrated tokens those replacements saved. */
  tokensSaved: number;
}

/** The file summary is kept to this many characters; a model-written summary can ramble. */
const SUMMARY_CHARS = 1200;
const OUTLINE_MAX = 40;
const CHUNK_SUMMARY_CHARS = 160;

/** read_file's own header: "src/a.ts lines 41-90 of 300:" or "src/a.ts (300 lines):". */
const READ_RANGE = /^(.+) lines (\d+)-(\d+) of (\d+):$/;
const READ_WHOLE = /^(.+) \((\d+) lines\):$/;

interface ReadShape {
  path: string;
  span: LineSpan;
}

/**
 * Replaces old read_file results (oldest first, while the request is over the target) with their file's index
 * summary when that is shorter. The latest round stays whole (scope.canCompress). A summary lookup that fails
 * is skipped: this step only ever saves, it never stops a compression.
 */
export async function compressByIndexSummaries(scope: CompressionScope, summaries: IndexSummaryPort, signal: AbortSignal): Promise<IndexSummaryOutcome> {
  // One lookup per path per run: a file read three times is checked (hashed, queried) once.
  const lookups = new Map<string, Promise<IndexedSummary | undefined>>();
  const lookup = (path: string) => {
    let found = lookups.get(path);
    if (!found) {
      found = summaries.summaryFor(path, signal);
      lookups.set(path, found);
    }
    return found;
  };
  const outcome: IndexSummaryOutcome = { messages: 0, tokensSaved: 0 };
  for (let i = 0; i < scope.history.length && scope.overTarget(); i++) {
    signal.throwIfAborted();
    if (!scope.canCompress(i)) continue;
    const message = scope.history[i]!;
    if (message.role !== 'tool') continue;
    const meta = toolResultMeta(scope.history, i);
    if (baseToolName(meta.tool) !== 'read_file' || meta.failed) continue;
    const read = readShape(message.content);
    if (!read) continue; // "x is empty", "does not exist" …: nothing a summary could stand in for
    const path = meta.file ?? read.path;
    let summary: IndexedSummary | undefined;
    try {
      summary = await lookup(path);
    } catch (err) {
      if (signal.aborted) throw err;
      continue;
    }
    if (!summary || !summary.summary.trim()) continue;
    const replacement: ChatMessage = { role: 'tool', content: summaryText(meta, read, summary, path) };
    if (message.toolCallId !== undefined) replacement.toolCallId = message.toolCallId;
    if (message.toolName !== undefined) replacement.toolName = message.toolName;
    if (scope.meter.message(replacement) >= scope.meter.message(scope.current(i))) continue;
    const before = scope.tokensOf(i);
    scope.replace(i, replacement, 'index');
    outcome.messages++;
    outcome.tokensSaved += Math.max(0, before - scope.tokensOf(i));
  }
  return outcome;
}

function readShape(content: string): ReadShape | undefined {
  const nl = content.indexOf('\n');
  const first = (nl < 0 ? content : content.slice(0, nl)).trimEnd();
  const range = READ_RANGE.exec(first);
  if (range) return { path: range[1]!, span: { startLine: Number(range[2]), endLine: Number(range[3]) } };
  const whole = READ_WHOLE.exec(first);
  if (whole) return { path: whole[1]!, span: { startLine: 1, endLine: Number(whole[2]) } };
  return undefined;
}

/**
 * What the model sees instead of the file body: the metadata line (as every digest has, so a stored session
 * reads it back the same way), the summary, the outline of the chunks it had read, and how to get the text.
 */
export function summaryText(meta: ToolResultMeta, read: ReadShape, summary: IndexedSummary, path: string): string {
  const lines = [describeMeta(meta), `${INDEX_SUMMARY_LABEL}${summary.path}: ${clip(summary.summary, SUMMARY_CHARS)}`];
  // Only the chunks the model had in front of it: a range read stands for that range.
  const chunks = summary.chunks
    .filter((c) => c.endLine >= read.span.startLine && c.startLine <= read.span.endLine)
    .sort((a, b) => a.startLine - b.startLine);
  if (chunks.length) {
    lines.push(`Outline (lines ${read.span.startLine}-${read.span.endLine}):`);
    for (const c of chunks.slice(0, OUTLINE_MAX)) {
      const about = c.summary?.trim() ? ` — ${oneLine(c.summary, CHUNK_SUMMARY_CHARS)}` : '';
      lines.push(`lines ${c.startLine}-${c.endLine}${c.name ? ` ${c.name}` : ''}${about}`);
    }
    if (chunks.length > OUTLINE_MAX) lines.push(`… ${chunks.length - OUTLINE_MAX} more chunks`);
  }
  const example = chunks[0] ?? read.span;
  const args = JSON.stringify({ path, start_line: example.startLine, end_line: example.endLine });
  lines.push(`Full result: read_file again with a line range for the exact text, e.g. ${args}.`);
  return markCompressed(lines.join('\n'));
}
