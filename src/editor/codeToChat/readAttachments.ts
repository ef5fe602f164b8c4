// Reads the pending context chips when the message is sent, into the attachments the user message carries
// (through the editor's file system, so unsaved edits are seen) and each MCP resource through its server.
// No vscode import: tested under node.
import { isMentionAttachment, isResourceAttachment, type Attachment, type CodeAttachment } from '../../shared/protocol';
import { attachmentLabel, formatAttachedMessage, type AttachedBlock } from '../../shared/attachedMessage';
import { resourceBlocks, type ResourceReader } from './resourceBlocks';

/** One chip's most characters (about 6k tokens): a bigger selection is clipped with a note. */
export const MAX_CHIP_CHARS = 24_000;
/** All chips of one message together. */
export const MAX_ATTACHED_CHARS = 64_000;
/** Below this much room left, a chip is named but not included. */
const MIN_USEFUL_CHARS = 400;

export interface TextReader {
  readFile(path: string): Promise<string>;
  /** Reads an MCP resource chip (absent: such chips are attached as a note saying they could not be read). */
  readResource?: ResourceReader;
}

/** A file the model saw, for the context tracker ("what the model knows"). */
export interface AttachedRead {
  path: string;
  range?: { start: number; end: number };
}

export interface AttachedMessage {
  /** What was attached, as read now: data on the user message (the model gets it as fenced blocks before the text). */
  blocks: AttachedBlock[];
  /** The request as the model reads it (the blocks, then the text), for a caller that needs the whole text. */
  message: string;
  reads: AttachedRead[];
}

export interface LimitOptions {
  maxChipChars?: number;
  maxTotalChars?: number;
}

export async function buildAttachedMessage(
  userText: string,
  attachments: readonly Attachment[],
  fs: TextReader,
  signal: AbortSignal,
  limits: LimitOptions = {},
): Promise<AttachedMessage> {
  const maxChip = limits.maxChipChars ?? MAX_CHIP_CHARS;
  let room = limits.maxTotalChars ?? MAX_ATTACHED_CHARS;
  const blocks: AttachedBlock[] = [];
  const reads: AttachedRead[] = [];
  for (const attachment of attachments) {
    signal.throwIfAborted();
    if (isResourceAttachment(attachment)) {
      const read = await resourceBlocks(attachment, fs.readResource, signal, { maxChars: Math.min(maxChip, room), skip: room < MIN_USEFUL_CHARS });
      room -= read.chars;
      blocks.push(...read.blocks);
      continue;
    }
    if (isMentionAttachment(attachment)) {
      // Captured when it was mentioned (diagnostics, a terminal's output, a folder's files): sent as it was.
      const text = room < MIN_USEFUL_CHARS ? '' : attachment.text.slice(0, Math.min(maxChip, room));
      room -= text.length;
      blocks.push({ label: `@${attachment.label}`, text, ...(text.length < attachment.text.length && { note: text ? 'clipped' : 'not included: the message is already long' }) });
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(attachment.file);
    } catch (err) {
      blocks.push({ label: attachmentLabel(attachment), text: '', note: `could not be read: ${err instanceof Error ? err.message : String(err)}` });
      continue;
    }
    if (room < MIN_USEFUL_CHARS) {
      blocks.push({ label: attachmentLabel(attachment), text: '', note: 'not included: the message is already long; read_file can read it' });
      continue;
    }
    const block = attachedBlock(attachment, text, Math.min(maxChip, room));
    room -= block.text.length;
    blocks.push(block.block);
    reads.push({ path: attachment.path, ...(block.lines && { range: block.lines }) });
  }
  return { blocks, message: formatAttachedMessage(userText, blocks), reads };
}

/** The chip's lines as they are now, clipped on a line boundary to `maxChars`. */
export function attachedBlock(
  attachment: CodeAttachment,
  fileText: string,
  maxChars: number,
): { block: AttachedBlock; text: string; lines: { start: number; end: number } | undefined } {
  // Split as the editor counts lines: "" is one empty line, and a final newline starts an empty last line.
  const all = splitLines(fileText);
  const wholeFile = attachment.startLine === undefined;
  const askedStart = attachment.startLine ?? 1;
  const askedEnd = attachment.endLine ?? (wholeFile ? all.length : askedStart);
  const notes: string[] = [];
  const start = Math.min(askedStart, all.length);
  let end = Math.min(Math.max(askedEnd, start), all.length);
  if (askedStart > all.length || askedEnd > all.length) notes.push(`the file now has ${all.length} line${all.length === 1 ? '' : 's'}`);
  const wanted = all.slice(start - 1, end);
  const kept = clipLines(wanted, maxChars);
  if (kept.lines.length < wanted.length || kept.cutLine) {
    const shownEnd = start + Math.max(kept.lines.length, 1) - 1;
    notes.push(`clipped to ${kept.text.length} characters: lines ${start}-${shownEnd} of ${start}-${end} shown; read_file can read the rest`);
    end = shownEnd;
  }
  const text = kept.text;
  const lines = { start, end };
  // A whole, unclipped file is labelled as the file; anything else by the lines actually shown.
  const label = wholeFile && notes.length === 0 ? attachment.path : attachmentLabel({ path: attachment.path, startLine: lines.start, endLine: lines.end });
  const block: AttachedBlock = { label, text, ...(attachment.languageId && { languageId: attachment.languageId }), ...(notes.length && { note: notes.join('; ') }) };
  return { block, text, lines: wholeFile && notes.length === 0 ? undefined : lines };
}

/** Lines as the editor numbers them (a final newline starts an empty last line), so chip ranges match. */
function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Whole lines while they fit; a first line longer than the limit is cut (minified code). */
function clipLines(lines: readonly string[], maxChars: number): { lines: string[]; text: string; cutLine: boolean } {
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    const add = line.length + (kept.length ? 1 : 0);
    if (size + add > maxChars) {
      if (kept.length === 0) {
        const cut = line.slice(0, maxChars);
        return { lines: [cut], text: cut, cutLine: true };
      }
      break;
    }
    kept.push(line);
    size += add;
  }
  return { lines: kept, text: kept.join('\n'), cutLine: false };
}
