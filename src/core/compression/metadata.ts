// What a tool result was about, derived from the call's arguments and the result's own header/footer:
// enough to replace a large result with one line the model can act on (re-read the file, re-run the command).
import type { ChatMessage, ToolCall } from '../messages';
import { parseArguments } from './marker';
import { formatCount } from '../../shared/format';

export interface ToolResultMeta {
  tool: string;
  file?: string;
  destination?: string;
  /** e.g. "1-80 of 300" or "all 42". */
  lines?: string;
  command?: string;
  pattern?: string;
  exitCode?: number;
  /** The result reported a failure (an "Error:" result, a non-zero exit, a timeout). */
  failed: boolean;
  chars: number;
  lineCount: number;
}

/**
 * What a failed result looks like: the executor's "Error:" results, a denied or unrun call, an MCP tool's
 * reported error, a command that timed out, was cancelled or killed (a non-zero exit is read separately).
 */
const FAILURE: readonly RegExp[] = [
  /^Error:/,
  /^The user denied/,
  /^Not run:/,
  /^Cancelled (?:before|while) /,
  /^The MCP tool "[^"]*" of server "[^"]*" reported an error/,
  /\[Timed out/,
  /\n\[(?:Cancelled by the user|The command was killed by a signal)[^\n]*\]\s*$/,
];

/** The tool's own name: MCP tools are registered as `server__tool` (e.g. files__list_directory → list_directory). */
export function baseToolName(name: string): string {
  const cut = name.lastIndexOf('__');
  return cut > 0 && cut + 2 < name.length ? name.slice(cut + 2) : name;
}

/** The call this tool result answers: the nearest earlier assistant message carrying its id. */
export function findCall(history: readonly ChatMessage[], index: number): ToolCall | undefined {
  const id = history[index]?.toolCallId;
  if (!id) return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const call = history[i]!.toolCalls?.find((c) => c.id === id);
    if (call) return call;
  }
  return undefined;
}

export function toolResultMeta(history: readonly ChatMessage[], index: number): ToolResultMeta {
  const message = history[index]!;
  const call = findCall(history, index);
  const args = call ? (parseArguments(call.arguments) ?? {}) : {};
  const content = message.content;
  const meta: ToolResultMeta = {
    tool: message.toolName ?? call?.name ?? 'tool',
    failed: FAILURE.some((re) => re.test(content)),
    chars: content.length,
    lineCount: content ? content.split('\n').length : 0,
  };
  const file = str(args.path) ?? str(args.file) ?? str(args.file_path) ?? str(args.source);
  if (file) meta.file = file;
  const destination = str(args.destination) ?? str(args.target);
  if (destination) meta.destination = destination;
  const command = str(args.command) ?? str(args.cmd);
  if (command) meta.command = command;
  const pattern = str(args.pattern) ?? str(args.query);
  if (pattern) meta.pattern = pattern;
  const lines = linesOf(content, args);
  if (lines) meta.lines = lines;
  const exit = /\[Exit code (-?\d+)\.\]\s*$/.exec(content);
  if (exit) {
    meta.exitCode = Number(exit[1]);
    if (meta.exitCode !== 0) meta.failed = true;
  }
  return meta;
}

/** One line: "read_file src/a.ts lines 1-80 of 300 (2,345 chars)". */
export function describeMeta(meta: ToolResultMeta): string {
  const parts = [meta.tool];
  if (meta.command) parts.push(`\`${oneLineCut(meta.command, 120)}\``);
  if (meta.file) parts.push(meta.destination ? `${meta.file} → ${meta.destination}` : meta.file);
  else if (meta.destination) parts.push(`→ ${meta.destination}`);
  if (meta.pattern) parts.push(`for "${oneLineCut(meta.pattern, 60)}"`);
  if (meta.lines) parts.push(`lines ${meta.lines}`);
  if (meta.exitCode !== undefined) parts.push(`exit code ${meta.exitCode}`);
  else if (meta.failed) parts.push('failed');
  parts.push(`(${formatCount(meta.chars)} chars, ${meta.lineCount} lines)`);
  return parts.join(' ');
}

function linesOf(content: string, args: Record<string, unknown>): string | undefined {
  // read_file states the range and the total in its header.
  const range = /^\S.* lines (\d+)-(\d+) of (\d+):/.exec(content);
  if (range) return `${range[1]}-${range[2]} of ${range[3]}`;
  const whole = /^\S.* \((\d+) lines\):/.exec(content);
  if (whole) return `all ${whole[1]}`;
  const start = num(args.start_line);
  const end = num(args.end_line);
  if (start !== undefined || end !== undefined) return `${start ?? 1}-${end ?? 'end'}`;
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function oneLineCut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max) + '…';
}
