// A proposed file change shared by write_file and edit_file: computed once for approval, recomputed at invoke.
import * as path from 'node:path';
import type { ApprovalDescription, ToolContext } from '../tool';
import { countLines, formatSize, plural, type ResolvedPath } from './common';
import type { ChangeSummary } from './diffSummary';

export interface PlannedChange {
  path: ResolvedPath;
  /** Where the bytes go: the path itself, or the target of a symlink inside the workspace (so the link survives). */
  target: string;
  before: string | undefined;
  after: string;
  summary: ChangeSummary;
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
  await ctx.fs.writeFile(change.target, change.after);
  ctx.tracker.fileModified(change.path.rel, change.summary.range);
}

export function rangeText(change: PlannedChange): string {
  const r = change.summary.range;
  if (!r) return '';
  return r.start === r.end ? ` (line ${r.start} changed)` : ` (lines ${r.start}-${r.end} changed)`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
