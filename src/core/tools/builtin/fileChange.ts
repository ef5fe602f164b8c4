// A proposed file change shared by write_file and edit_file: computed once for approval, recomputed at invoke.
import * as path from 'node:path';
import type { ApprovalDescription, ToolContext } from '../tool';
import { countLines, formatSize, lineAt, plural, type FileFormat, type ResolvedPath } from './common';
import type { ChangeSummary } from './diffSummary';
import { encodeText, encodingLabel } from '../encoding/textEncoding';

export interface PlannedChange {
  path: ResolvedPath;
  /** Where the bytes go: the path itself, or the target of a symlink inside the workspace (so the link survives). */
  target: string;
  before: string | undefined;
  after: string;
  summary: ChangeSummary;
  /** The exact bytes to write (an existing file, in its own encoding); absent: write `after` as text. */
  bytes?: Uint8Array;
}

export type Plan = { ok: true; change: PlannedChange } | { ok: false; message: string };

/** Thrown from describeForApproval so a doomed call is reported to the model without asking the user. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export async function writeTarget(ctx: ToolContext, abs: string): Promise<string> {
  const stat = await ctx.fs.lstat(abs);
  // resolve() already proved the link's destination is inside the workspace.
  return stat?.kind === 'symlink' ? ctx.fs.realpath(abs) : abs;
}

export function describeChange(verb: 'Create' | 'Overwrite' | 'Edit', change: PlannedChange): ApprovalDescription {
  const { before, after, summary } = change;
  const rel = change.path.rel;
  const lines: string[] = [];
  if (before === undefined) {
    lines.push(`New file ${rel}: ${plural(countLines(after), 'line')}, ${formatSize(byteLength(after))}.`);
  } else {
    lines.push(`${rel}: ${countLines(before)} → ${plural(countLines(after), 'line')}, ${formatSize(byteLength(after))} (+${summary.added} −${summary.removed}).`);
    if (summary.patch) lines.push(summary.patch);
  }
  return {
    title: `${verb} ${rel}`,
    detail: lines.join('\n'),
    fileChange: { path: change.path.abs, before, after },
  };
}

/** Write the planned content, creating parent directories, and report the changed lines to the tracker. */
export async function applyChange(ctx: ToolContext, change: PlannedChange): Promise<void> {
  await ctx.fs.mkdir(path.dirname(change.target));
  if (change.bytes) await ctx.fs.writeBytes(change.target, change.bytes);
  else await ctx.fs.writeFile(change.target, change.after);
  ctx.tracker.fileModified(change.path.rel, change.summary.range);
}

export type Encoding = { ok: true; bytes?: Uint8Array } | { ok: false; message: string };

/**
 * The bytes that write `after` into a file of this format, or why it cannot be done without changing bytes the
 * edit did not touch. New files and files the host edits as text (an open, modified document) need none.
 */
export function encodeFor(rel: string, format: FileFormat | undefined, after: string): Encoding {
  if (!format || format.mode === 'host') return { ok: true };
  const label = encodingLabel(format.encoding);
  if (!format.exact) {
    return {
      ok: false,
      message: `Not applied: ${rel} is ${label} but holds bytes that do not decode exactly, so writing it would change bytes the edit did not touch. ${rel} was not changed; ask the user to edit it in their editor.`,
    };
  }
  const encoded = encodeText(after, format.encoding);
  if (encoded.ok) return { ok: true, bytes: encoded.bytes };
  const code = `U+${encoded.char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return {
    ok: false,
    message:
      `Not applied: ${rel} is saved as ${label}, which cannot hold "${encoded.char}" (${code}) on line ${lineAt(after, encoded.index)} of the result; ${rel} was not changed. ` +
      `Use characters that ${label} has (e.g. plain ASCII), or the language's escape sequence for this character.`,
  };
}

export function rangeText(change: PlannedChange): string {
  const r = change.summary.range;
  if (!r) return '';
  return r.start === r.end ? ` (line ${r.start} changed)` : ` (lines ${r.start}-${r.end} changed)`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
