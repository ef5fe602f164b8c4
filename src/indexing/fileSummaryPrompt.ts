// The prompt that asks a model to summarize one file for the index: every chunk is listed, numbered from 1 (as the
// reply schema says) with its line span, its lines numbered so entity lines come out right. Each summary names its
// chunk twice over — the number and the chunk's first line — so a model that numbers its own way still says which
// code it means (the answer is checked against the chunks: summaryAlignment.ts). The chunk texts share a character
// budget so a model with a 4k window still fits, and a chunk that does not fit whole is clipped (and still summarized).
import type { ChatMessage } from '../core/messages';
import type { ChunkDraft } from '../core/knowledge/types';
import { standaloneRequest } from '../core/prompt/requestLayout';

export interface SummaryPromptInput {
  path: string;
  language: string;
  chunks: readonly ChunkDraft[];
}

export interface SummaryPrompt {
  messages: ChatMessage[];
  /** Positions (0-based) of the chunks shown only in part. */
  clipped: number[];
}

export const SUMMARY_SYSTEM_PROMPT = [
  'You index source files for a code search tool. Read the file below and reply with one JSON object and nothing else:',
  '{"summary": "...", "chunks": [{"chunk": 1, "start_line": 1, "summary": "..."}], "entities": [{"name": "parseConfig", "kind": "function", "line": 12}], "relations": [{"from": "parseConfig", "kind": "calls", "to": "readFile", "line": 14}]}',
  '- summary: two or three sentences on what the file is for and what it offers.',
  '- chunks: one entry for every chunk, in order, comments and imports included: chunk is its number as shown ("Chunk N of M", counted from 1), start_line the first line of its span ("lines A-B": A), and one sentence on what it does that names what it declares. A clipped chunk is shown in part: summarize it from what you see.',
  '- entities: what the file declares (function, class, method, interface, type, variable, constant, …) with the line number of the declaration.',
  '- relations: how entities connect. from and to are entity names (to may live elsewhere, e.g. an imported package); kind is one of calls, imports, defines, uses, extends, implements, references.',
].join('\n');

/** Room for a clipped chunk's note in its header. */
const CLIP_NOTE_RESERVE = 40;
/** Below this a clipped chunk shows no text at all, only its header. */
const MIN_SHOWN_CHARS = 16;

export function buildSummaryPrompt(input: SummaryPromptInput, maxChars: number): SummaryPrompt {
  const total = input.chunks.length;
  const head = `File: ${input.path} (${input.language}, ${total} chunk${total === 1 ? '' : 's'})`;
  const bodies = input.chunks.map(numberedLines);
  const headers = input.chunks.map((chunk, i) => chunkHeader(chunk, i, total));
  // Everything but the chunk texts is always sent: each chunk must be asked for, even when none of it fits.
  const fixed = SUMMARY_SYSTEM_PROMPT.length + head.length + headers.reduce((sum, h) => sum + h.length + 3, 0);
  const allowances = shareBudget(
    bodies.map((b) => b.length),
    Math.max(0, maxChars - fixed),
  );
  const clipped: number[] = [];
  const sections = input.chunks.map((chunk, i) => {
    const body = bodies[i]!;
    if (body.length <= allowances[i]!) return `${headers[i]}\n${body}`;
    clipped.push(i);
    const shown = clipLines(body, allowances[i]! - CLIP_NOTE_RESERVE);
    const firstHidden = chunk.startLine + shown.lines;
    const note = shown.lines === 0 ? 'clipped: not shown' : `clipped: lines ${firstHidden}-${chunk.endLine} not shown`;
    return `${headers[i]} (${note})${shown.text ? `\n${shown.text}` : ''}`;
  });
  const user = total === 0 ? `${head}\n\n(The file is empty.)` : [head, ...sections].join('\n\n');
  return {
    messages: standaloneRequest(SUMMARY_SYSTEM_PROMPT, user),
    clipped,
  };
}

function chunkHeader(chunk: ChunkDraft, index: number, total: number): string {
  const what = chunk.name ? `${chunk.kind} ${chunk.name}` : chunk.kind;
  return `Chunk ${index + 1} of ${total}: ${what}, lines ${chunk.startLine}-${chunk.endLine}`;
}

/** "12| code" per line: the model reads declaration lines off the text instead of counting. */
function numberedLines(chunk: ChunkDraft): string {
  return chunk.text
    .split(/\r?\n/)
    .map((line, i) => `${chunk.startLine + i}| ${line}`)
    .join('\n');
}

/**
 * Splits `budget` over texts of the given lengths: short texts get all they need, the rest share what remains
 * equally (water-filling), so one long chunk cannot crowd out the others.
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const out = new Array<number>(lengths.length).fill(0);
  const order = lengths.map((len, i) => ({ len, i })).sort((a, b) => a.len - b.len);
  let left = budget;
  order.forEach(({ len, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.min(len, share);
    left -= out[i]!;
  });
  return out;
}

/** Whole lines from the top while they fit; a first line too long for the room is cut. */
function clipLines(text: string, room: number): { text: string; lines: number } {
  if (room < MIN_SHOWN_CHARS) return { text: '', lines: 0 };
  const lines = text.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = line.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > room) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length === 0) return { text: `${lines[0]!.slice(0, room - 1)}…`, lines: 1 };
  return { text: kept.join('\n'), lines: kept.length };
}
