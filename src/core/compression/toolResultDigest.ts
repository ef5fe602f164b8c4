// Tool-specific digests: what stands in for a tool result once it is compressed or evicted. A weak model
// trusts what it sees, so a digest keeps every fact the model would act on (every name a listing gave, every
// search hit, the exit code and last output lines of a command, the outcome of a change, the error text) and
// drops only bulk (file bodies, sizes, long output). When something was left out it says how to get it back.
import type { ChatMessage } from '../messages';
import { clip, isCompressed, markCompressed, oneLine, parseArguments, unmarked } from './marker';
import { baseToolName, describeMeta, findCall, toolResultMeta, type ToolResultMeta } from './metadata';
import type { DigestFacts as Parsed } from './digestFacts';
import { fileReadDigest, isFileBody } from './fileReadDigest';

export interface DigestOptions {
  /** Characters kept of a result no digest rule understands (the `fallbackToolResultChars` setting). */
  headChars?: number;
  /** The compression model's note: added after the facts, never instead of them. */
  note?: string;
}

export const DEFAULT_HEAD_CHARS = 200;
/** Longer listings put their names on one comma-separated line (every name still there). */
const ONE_PER_LINE_MAX = 30;
/** Error texts up to this size are kept whole. */
const ERROR_CHARS = 600;
const COMMAND_TAIL_LINES = 5;
const OUTPUT_LINE_CHARS = 200;
const COMMAND_LINE_CHARS = 120;
const HINT_ARGS_CHARS = 200;
/** Lines of a compressed digest that are no fact (left out when a digest is re-read for the summary). */
const HINT_LINE = /^(?:Full result|Full output|Already done):/;


interface Analysis {
  meta: ToolResultMeta;
  base: string;
  args: Record<string, unknown> | undefined;
  parsed: Parsed;
}

/** The digest that replaces tool result `index`, marked as compressed. An already compressed result is returned as it is. */
export function digestToolResult(history: readonly ChatMessage[], index: number, options: DigestOptions = {}): string {
  const m = history[index]!;
  if (isCompressed(m)) return m.content;
  const a = analyse(history, index, options.headChars ?? DEFAULT_HEAD_CHARS);
  const lines = [describeMeta(a.meta), ...a.parsed.facts];
  const note = options.note?.replace(/\s+/g, ' ').trim();
  if (note) lines.push(`Note: ${note}`);
  const hint = recoveryHint(a);
  if (hint) lines.push(hint);
  return markCompressed(lines.join('\n'));
}

/** A tool result on one line for the session summary: "list_directory .: 12 entries: a.txt, b.txt, …". */
export function digestLine(history: readonly ChatMessage[], index: number): string {
  const m = history[index]!;
  const meta = toolResultMeta(history, index);
  const target = meta.command ? `\`${oneLine(meta.command, 80)}\`` : meta.file ? (meta.destination ? `${meta.file} → ${meta.destination}` : meta.file) : '';
  const head = `${meta.tool}${target ? ` ${target}` : ''}`;
  if (isCompressed(m)) {
    // Stored sessions come back with compressed copies in place of the originals: re-read the digest's facts.
    const facts = unmarked(m.content).split('\n').slice(1).filter((l) => l.trim() && !HINT_LINE.test(l));
    return `${head}: ${facts.length ? clip(facts.join(' | '), 4000) : 'compressed earlier'}`;
  }
  return `${head}: ${analyse(history, index, DEFAULT_HEAD_CHARS).parsed.brief}`;
}

/** The todo list a todo_write/todo_read result shows, or undefined when it is not one. */
export function parseTodoList(content: string): Array<{ text: string; status: 'pending' | 'in_progress' | 'done' }> | undefined {
  const text = content.trim();
  if (/^The todo list is empty\.?$/.test(text)) return [];
  const lines = text.split('\n');
  if (!/^Todos \(\d+\/\d+ done\):$/.test(lines[0]!.trim())) return undefined;
  const status = { ' ': 'pending', '~': 'in_progress', x: 'done' } as const;
  const out: Array<{ text: string; status: 'pending' | 'in_progress' | 'done' }> = [];
  for (const line of lines.slice(1)) {
    const m = /^\d+\. \[([ ~x])\] (.*)$/.exec(line.trimEnd());
    if (m) out.push({ text: m[2]!, status: status[m[1] as ' ' | '~' | 'x'] });
  }
  return out;
}

/**
 * Did the result report success? For the summary's files list: a failed change touched nothing, and a failed
 * read must not make a missing file look present.
 */
export function resultSucceeded(history: readonly ChatMessage[], index: number): boolean {
  const m = history[index]!;
  const meta = toolResultMeta(history, index);
  const base = baseToolName(meta.tool);
  const builtin = meta.tool === base; // MCP tools speak their own formats
  if (isCompressed(m)) {
    // A stored compressed copy: our digests say "Already done" for a change; older copies kept the result's head.
    const facts = unmarked(m.content).split('\n').slice(1);
    if (!CHANGE_TOOLS.has(base)) return !/\bfailed \(/.test(unmarked(m.content).split('\n')[0]!);
    const own = builtin ? BUILTIN_SUCCESS[base] : undefined;
    return facts.some((l) => /^Already done:/.test(l) || (own ? own.test(l.trim()) : /^Successfully /.test(l.trim())));
  }
  const text = m.content.trim();
  if (CHANGE_TOOLS.has(base)) return changeOk(base, meta.tool, text, meta);
  if (meta.failed) return false;
  if (builtin && base === 'read_file') {
    return isFileBody(text.split('\n')[0]!);
  }
  return true;
}

function analyse(history: readonly ChatMessage[], index: number, headChars: number): Analysis {
  const meta = toolResultMeta(history, index);
  const call = findCall(history, index);
  const args = call ? parseArguments(call.arguments) : undefined;
  const base = baseToolName(meta.tool);
  return { meta, base, args, parsed: parse(base, meta, history[index]!.content, headChars) };
}

function parse(base: string, meta: ToolResultMeta, content: string, headChars: number): Parsed {
  const text = content.trim();
  if (!text) return { facts: ['(empty result)'], brief: 'empty result', partial: false };
  if (CHANGE_TOOLS.has(base)) return change(base, meta, text);
  if (base === 'run_command') return command(text, meta) ?? failedOr(meta, text, () => head(text, headChars));
  if (meta.failed) return failure(text);
  switch (base) {
    case 'list_directory':
      return builtinListing(text) ?? genericListing(text) ?? whole(text, headChars);
    case 'search_files':
      return builtinSearch(text) ?? genericListing(text) ?? whole(text, headChars);
    case 'read_file':
    case 'read_text_file':
      return fileReadDigest(text, meta, meta.tool === 'read_file') ?? whole(text, headChars);
    case 'todo_write':
    case 'todo_read':
      return todos(text) ?? whole(text, headChars);
    default:
      return genericListing(text) ?? head(text, headChars);
  }
}

// ── listings ────────────────────────────────────────────────────────────────────────────────────────────

const LISTING_HEADER = /^(.+): \d+ director(?:y|ies), \d+ files?(?: \(empty\))?\.?$/;
const LISTING_ENTRY = /^\[(dir|file|link|other)\] +(.+)$/;
const ENTRY_SIZE = / \(\d+(?:\.\d+)? (?:B|KB|MB|GB|TB)\)$/;

/** list_directory's own format: a header with the counts, then "[dir]  src/", "[file] a.ts (1.2 KB)". */
function builtinListing(text: string): Parsed | undefined {
  const lines = text.split('\n');
  const header = lines[0]!.trim();
  if (!LISTING_HEADER.test(header)) return undefined;
  const names: string[] = [];
  const extra: string[] = [];
  for (const line of lines.slice(1)) {
    const e = LISTING_ENTRY.exec(line.trimEnd());
    if (e) names.push(e[1] === 'file' ? e[2]!.replace(ENTRY_SIZE, '') : e[2]!);
    else if (line.trim()) extra.push(cutLine(line.trim(), OUTPUT_LINE_CHARS));
  }
  return listing(header.replace(/[.:]$/, ''), names, extra, true);
}

// The MCP filesystem server's "[FILE] a.txt" / "[DIR] src" (with sizes: "[FILE] a.txt      15 B"), its
// search results (one path a line), and any other result that is nothing but a list of names.
const TAGGED_ENTRY = /^\[(FILE|DIR|LINK|SYMLINK|OTHER|file|dir|link|symlink|other)\] +(.+?)( {2,}\S.*)?$/;
const PATH_LIKE = /^[^\s,;]*[/\\.][^\s,;]*$/;
const LISTING_TRAILER = /^(?:Total|Combined size):/;

function genericListing(text: string): Parsed | undefined {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim());
  const names: string[] = [];
  const trailers: string[] = [];
  let tagged = 0;
  let sized = false;
  for (const line of lines) {
    const t = TAGGED_ENTRY.exec(line.trim());
    if (t) {
      tagged++;
      sized ||= t[3] !== undefined;
      names.push(/^d/i.test(t[1]!) && !t[2]!.endsWith('/') ? `${t[2]!}/` : t[2]!);
    } else if (LISTING_TRAILER.test(line.trim())) trailers.push(line.trim());
    else if (line.length <= 400 && PATH_LIKE.test(line.trim())) names.push(line.trim());
    else return undefined;
  }
  if (tagged === 0 && names.length < 2) return undefined; // one path is not a listing
  return listing(`${names.length} ${names.length === 1 ? 'entry' : 'entries'}`, names, trailers, sized);
}

function listing(header: string, names: readonly string[], extra: readonly string[], sizesDropped: boolean): Parsed {
  if (names.length === 0) return { facts: [header, ...extra], brief: [header, ...extra].join(' '), partial: false };
  const intro = `${header}. All ${names.length} ${names.length === 1 ? 'name' : 'names'}${sizesDropped ? ', sizes left out' : ''}:`;
  const body = names.length <= ONE_PER_LINE_MAX ? names : [names.join(', ')];
  return {
    facts: [intro, ...body, ...extra],
    brief: `${header}: ${names.join(', ')}${extra.length ? ` (${extra.join(' ')})` : ''}`,
    partial: sizesDropped,
  };
}

// ── search ──────────────────────────────────────────────────────────────────────────────────────────────

const SEARCH_HEADER = /^(?:at least )?\d+ match(?:es)? in \d+ files? for \/.*\/ in .*:$/;
const SEARCH_HIT = /^(.+?):(\d+):(?: |$)/;

/** search_files' own format: "N matches in M files for /re/ in where:" then "path:line: text". */
function builtinSearch(text: string): Parsed | undefined {
  const lines = text.split('\n');
  const notes: string[] = [];
  let i = 0;
  if (lines[0]!.startsWith('Note: ')) notes.push(lines[i++]!.trim());
  const first = lines[i]?.trim() ?? '';
  if (/^No matches for \//.test(first)) return { facts: [text], brief: oneLine(text, 300), partial: false };
  // Without the header (another tool's grep-like output) every line must be a hit.
  const headed = SEARCH_HEADER.test(first);
  if (!headed && !lines.slice(i).every((l) => !l.trim() || SEARCH_HIT.test(l))) return undefined;
  const hits = new Map<string, number[]>();
  const extra: string[] = [];
  for (const line of lines.slice(headed ? i + 1 : i)) {
    const h = SEARCH_HIT.exec(line);
    if (h) {
      const list = hits.get(h[1]!) ?? [];
      list.push(Number(h[2]));
      hits.set(h[1]!, list);
    } else if (line.trim()) extra.push(cutLine(line.trim(), OUTPUT_LINE_CHARS));
  }
  const count = [...hits.values()].reduce((n, at) => n + at.length, 0);
  const header = headed ? first.replace(/:$/, '') : `${count} ${count === 1 ? 'match' : 'matches'} in ${hits.size} ${hits.size === 1 ? 'file' : 'files'}`;
  const groups = [...hits].map(([path, at]) => `${path}:${at.join(',')}`);
  const body = groups.length <= ONE_PER_LINE_MAX ? groups : [groups.join('; ')];
  return {
    facts: [...notes, `${header} (path:line, text left out):`, ...body, ...extra],
    brief: `${header}: ${groups.join('; ')}${extra.length ? ` (${extra.join(' ')})` : ''}`,
    partial: true,
  };
}

// ── commands ────────────────────────────────────────────────────────────────────────────────────────────

const COMMAND_STATUS = /^\[(Exit code -?\d+\.|Timed out after [^.]*\.[^\]]*|Cancelled by the user[^\]]*|The command was killed by a signal\.)\]$/;

/** run_command's format: the output (stdout and stderr together), then "[Exit code N.]" or another status. */
function command(text: string, meta: ToolResultMeta): Parsed | undefined {
  const lines = text.split('\n');
  const statusLine = lines[lines.length - 1]!.trim();
  const s = COMMAND_STATUS.exec(statusLine);
  if (!s) return undefined;
  // The timeout status goes on with advice; its first sentence is the fact.
  const status = `[${s[1]!.startsWith('Timed out') ? s[1]!.slice(0, s[1]!.indexOf('.') + 1) : s[1]!}]`;
  const output = lines.slice(0, -1).filter((l) => l.trim());
  const none = output.length === 0 || (output.length === 1 && output[0]!.trim() === '(no output)');
  const tail = none ? [] : output.slice(-COMMAND_TAIL_LINES).map((l) => cutLine(l, COMMAND_LINE_CHARS));
  const shortened = tail.some((l, i) => l !== output[output.length - tail.length + i]!.trimEnd());
  const partial = output.length > tail.length || shortened;
  const cut = shortened ? ', long lines cut' : '';
  const intro = none ? '(no output)' : output.length > tail.length ? `Last ${tail.length} of ${output.length} output lines${cut}:` : `Output${cut}:`;
  const outcome = meta.exitCode !== undefined ? `exit code ${meta.exitCode}` : s[1]!.startsWith('Timed out') ? 'timed out' : s[1]!.startsWith('Cancelled') ? 'cancelled' : 'killed';
  const last = tail.length ? `; last output: ${oneLine(tail[tail.length - 1]!, 120)}` : '';
  return { facts: [intro, ...tail, status], brief: `${outcome}${last}`, partial };
}

// ── changes ─────────────────────────────────────────────────────────────────────────────────────────────

const CHANGE_TOOLS = new Set(['move_file', 'write_file', 'edit_file', 'create_file', 'delete_file', 'create_directory', 'apply_patch']);
/** The built-in tools' own success lines; anything else from them is a failure message. */
const BUILTIN_SUCCESS: Readonly<Record<string, RegExp>> = {
  move_file: /^Moved .+ to .+\.$/,
  write_file: /^(?:Created |Wrote |.+ already has exactly this content)/,
  edit_file: /^Edited /,
};

function changeOk(base: string, tool: string, text: string, meta: ToolResultMeta): boolean {
  if (meta.failed) return false;
  const own = tool === base ? BUILTIN_SUCCESS[base] : undefined; // MCP tools speak their own formats
  return own ? own.test(text) : true;
}

/** move_file / write_file / edit_file and their MCP namesakes: the one-line result whole, errors whole. */
function change(base: string, meta: ToolResultMeta, text: string): Parsed {
  if (!changeOk(base, meta.tool, text, meta)) return failure(text);
  const lines = text.split('\n');
  const first = lines[0]!.trim();
  const rest = lines.slice(1).some((l) => l.trim());
  return {
    facts: rest ? [first, '(details left out)'] : [first],
    brief: base === 'move_file' ? 'ok' : oneLine(first, 300),
    partial: false,
    applied: true,
  };
}

// ── everything else ─────────────────────────────────────────────────────────────────────────────────────

function todos(text: string): Parsed | undefined {
  const list = parseTodoList(text);
  if (!list) return undefined;
  const done = list.filter((t) => t.status === 'done').length;
  return { facts: [clip(text, 1500)], brief: list.length ? `${done}/${list.length} done` : 'the list is empty', partial: text.length > 1500 };
}

function failure(text: string): Parsed {
  return { facts: [clip(text, ERROR_CHARS)], brief: `failed: ${oneLine(text, 300)}`, partial: text.length > ERROR_CHARS };
}

function failedOr(meta: ToolResultMeta, text: string, otherwise: () => Parsed): Parsed {
  return meta.failed ? failure(text) : otherwise();
}

/** A result in a format we do not know that is short enough to keep (e.g. list_directory's "does not exist"). */
function whole(text: string, headChars: number): Parsed {
  return text.length <= ERROR_CHARS ? { facts: [text], brief: oneLine(text, 300), partial: false } : head(text, headChars);
}

/** Unknown tools: the first `headChars` characters. */
function head(text: string, headChars: number): Parsed {
  const facts = headChars <= 0 ? [] : [clip(text, headChars)];
  return { facts, brief: `ok: ${oneLine(text, 100)}`, partial: headChars <= 0 || text.length > headChars };
}

/** A line cut to `max` characters; unlike clip() its indentation stays (it means something in output). */
function cutLine(line: string, max: number): string {
  const body = line.trimEnd();
  return body.length <= max ? body : `${body.slice(0, max)}…`;
}

function recoveryHint(a: Analysis): string | undefined {
  if (a.parsed.applied) {
    if (a.base === 'move_file') return 'Already done: do not repeat this move.';
    return `Already done: do not repeat it${a.meta.file ? `; read_file ${a.meta.file} shows the file as it is now` : ''}.`;
  }
  if (!a.parsed.partial) return undefined;
  if (a.base === 'run_command') return 'Full output: run it again if you need it.';
  const args = a.args ? JSON.stringify(a.args) : undefined;
  const how = args === undefined ? '' : args.length <= HINT_ARGS_CHARS ? ` with ${args}` : ' with the same arguments';
  return `Full result: call ${a.meta.tool}${how}.`;
}
