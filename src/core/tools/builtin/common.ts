// Helpers shared by the built-in tools: path resolution that never throws, text/line utilities, error wording.
import { z } from 'zod';
import { PathError } from '../../workspace/workspaceRoots';
import { fail, type ToolContext, type ToolResult } from '../tool';
import { errorMessage, formatSize, plural } from '../../../shared/format';
import { decodeBytes, detectEncoding, looksBinaryBytes, type TextEncodingName } from '../encoding/textEncoding';

/** A resolved tool path: absolute for the file system, relative for messages and tracking. */
export interface ResolvedPath {
  abs: string;
  rel: string;
}

export type Resolution = { ok: true; path: ResolvedPath } | { ok: false; message: string };

/** Resolve a model-supplied path through the workspace roots; path errors become messages, not exceptions. */
export async function resolvePath(ctx: ToolContext, userPath: string | undefined): Promise<Resolution> {
  try {
    const abs = await ctx.roots.resolve(userPath ?? '.');
    return { ok: true, path: { abs, rel: ctx.roots.relative(abs) } };
  } catch (err) {
    if (err instanceof PathError) return { ok: false, message: err.message };
    return { ok: false, message: `Could not resolve path "${userPath}": ${errorMessage(err)}` };
  }
}

export { errorMessage, formatSize, plural };

/** Turn a file-system error into a sentence the model can act on (node error codes and editor-style names). */
export function fsErrorMessage(err: unknown, rel: string): string {
  if (err instanceof PathError) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
    case 'FileNotFound':
      return `"${rel}" does not exist. Check the path with list_directory.`;
    case 'EACCES':
    case 'EPERM':
    case 'NoPermissions':
      return `Permission denied for "${rel}". Choose another path or ask the user.`;
    case 'EISDIR':
    case 'FileIsADirectory':
      return `"${rel}" is a directory, not a file.`;
    case 'ENOTDIR':
    case 'FileNotADirectory':
      return `A parent of "${rel}" is a file, not a directory. Check the path with list_directory.`;
    case 'EEXIST':
    case 'FileExists':
      return `"${rel}" already exists.`;
    default:
      return `File operation on "${rel}" failed: ${errorMessage(err)}`;
  }
}

/** Run a tool body; any file-system error it did not handle becomes a fail result instead of an exception. */
export async function guard(rel: () => string, body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    return fail(fsErrorMessage(err, rel()));
  }
}

/**
 * Small models often send numbers as strings ("10"). Accept those; the JSON Schema still says number.
 * Plain `z.number()` (not `.int()`) keeps the schema short: `.int()` adds a 16-digit maximum to every field.
 */
export function lenientNumber(min: number) {
  return z.preprocess((v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), z.number().min(min));
}

/** Split into lines the way editors count them: a final newline does not start a new line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function countLines(text: string): number {
  return splitLines(text).length;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** NUL bytes (or many undecodable bytes) near the start mean the file is not text. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8000);
  if (sample.includes('\0')) return true;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) if (sample.charCodeAt(i) === 0xfffd) bad++;
  return sample.length > 0 && bad / sample.length > 0.1;
}

/** The file's dominant line ending, so edits and rewrites keep it. */
export function usesCrlf(text: string): boolean {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  return crlf > 0 && crlf * 2 >= lf;
}

export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Files larger than this are not read into memory by the text tools. */
export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;

/**
 * How the text tools write a file back. `bytes`: encode in the file's own encoding and replace its bytes exactly.
 * `host`: the host shows other text than the bytes on disk (an editor document with unsaved changes): edit that
 * text through the host, which keeps the document's encoding.
 */
export type FileFormat = { mode: 'bytes'; encoding: TextEncodingName; exact: boolean } | { mode: 'host' };

export type TextRead =
  | { ok: true; text: string; exists: true; format: FileFormat }
  | { ok: true; text: undefined; exists: false }
  | { ok: false; message: string };

/**
 * Read a file as text for a tool, with the failures a model can act on spelled out.
 * `missingOk` turns "not found" into `{exists: false}` (write_file creating a new file).
 */
export async function readTextFile(ctx: ToolContext, p: ResolvedPath, missingOk = false): Promise<TextRead> {
  const linkStat = await ctx.fs.lstat(p.abs);
  // A symlink here points inside the workspace (resolve() checked); judge the file it points to.
  const stat = linkStat?.kind === 'symlink' ? await ctx.fs.lstat(await ctx.fs.realpath(p.abs)) : linkStat;
  if (!stat) {
    if (missingOk) return { ok: true, text: undefined, exists: false };
    return { ok: false, message: `File "${p.rel}" does not exist. Check the path with list_directory or search_files.` };
  }
  if (stat.kind === 'directory') {
    return { ok: false, message: `"${p.rel}" is a directory, not a file. Use list_directory to see its contents.` };
  }
  if (stat.kind === 'other') return { ok: false, message: `"${p.rel}" is not a regular file.` };
  if (stat.size > MAX_TEXT_FILE_BYTES) {
    return {
      ok: false,
      message: `File "${p.rel}" is too large (${formatSize(stat.size)}; limit ${formatSize(MAX_TEXT_FILE_BYTES)}). Use search_files to find the lines you need.`,
    };
  }
  const bytes = await ctx.fs.readBytes(p.abs);
  const encoding = detectEncoding(bytes);
  const binary = () => ({ ok: false as const, message: `File "${p.rel}" is a binary file (${formatSize(stat.size)}); the text tools cannot read or edit it.` });
  if (looksBinaryBytes(bytes, encoding)) return binary();
  const decoded = decodeBytes(bytes, encoding);
  // The host's view wins when it differs from the bytes (unsaved editor changes): that is what the user sees.
  const shown = await ctx.fs.readFile(p.abs);
  if (shown !== decoded.text) {
    if (looksBinary(shown)) return binary();
    return { ok: true, text: shown, exists: true, format: { mode: 'host' } };
  }
  return { ok: true, text: decoded.text, exists: true, format: { mode: 'bytes', encoding, exact: decoded.exact } };
}
