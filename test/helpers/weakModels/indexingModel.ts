// A weak model answering the file summarizer's requests (prompt format: src/indexing/fileSummaryPrompt.ts). A pure
// function of the request: it reads the numbered chunks in the prompt it receives — only the lines it was shown,
// so a clipped chunk's hidden part is unknown to it — and spots declarations, imports and calls with regexes.
//   good            plain JSON, right shapes.
//   fenced          the JSON in a ```json fence between two lines of prose.
//   clumsy          line numbers as strings, unknown fields, one entity without a name, calls as kind "invokes".
//   broken-then-good  first reply unusable (`firstBroken`: 'missing-summary' (default) or 'invalid-json'); a retry
//                   whose last message names the problem ("summary" / "JSON … invalid") gets a good reply.
//   always-broken   every reply misses the summary (valid JSON otherwise).
//   skips-from-1 / skips-from-0  numbers things its own way: leaves out the chunks that declare nothing (a comment
//                   block), numbers the rest from 1 (or 0) without start lines, and counts entity lines from the
//                   first chunk it kept. Its summaries still say what each declares ("Declares function fn1_3 …").
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { readRequest } from './requestView';

export type IndexingBehaviour = 'good' | 'fenced' | 'clumsy' | 'broken-then-good' | 'always-broken' | 'skips-from-1' | 'skips-from-0';

export interface IndexingModelOptions {
  firstBroken?: 'missing-summary' | 'invalid-json';
}

export interface PromptChunk {
  /** As numbered in the prompt (1-based). */
  number: number;
  kind: string;
  name?: string;
  startLine: number;
  endLine: number;
  clipped: boolean;
  /** Only the lines the prompt showed. */
  lines: Array<{ line: number; text: string }>;
}

export interface IndexingPrompt {
  path: string;
  chunks: PromptChunk[];
}

interface SeenEntity {
  name: string;
  kind: string;
  line: number;
}

interface SeenRelation {
  from: string;
  kind: string;
  to: string;
  line?: number;
}

const SYSTEM_MARK = 'You index source files for a code search tool';

export function isIndexingRequest(request: ChatBody): boolean {
  return readRequest(request).messages.some((m) => m.role === 'system' && m.content.includes(SYSTEM_MARK));
}

export function indexingModel(behaviour: IndexingBehaviour, options: IndexingModelOptions = {}): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const view = readRequest(request);
    const prompt = readIndexingPrompt(request);
    if (!prompt) return { text: 'I can only summarize files.' };
    const good = goodAnswer(prompt);
    const reply = (value: unknown) => ({ text: JSON.stringify(value), chunkSize: 40 });
    switch (behaviour) {
      case 'good':
        return reply(good);
      case 'fenced':
        return { text: `Here is the summary of ${prompt.path}:\n\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\n\nLet me know if you need more detail.`, chunkSize: 40 };
      case 'clumsy':
        return reply(clumsy(good));
      case 'always-broken':
        return reply(withoutSummary(good));
      case 'skips-from-1':
      case 'skips-from-0':
        return reply(ownNumbering(prompt, good, behaviour === 'skips-from-1' ? 1 : 0));
      case 'broken-then-good': {
        const kind = options.firstBroken ?? 'missing-summary';
        const last = view.messages.at(-1);
        const told = view.messages.some((m) => m.role === 'assistant') && last?.role === 'user' &&
          (kind === 'missing-summary' ? /\bsummary\b/.test(last.content) : /JSON[^\n]*\binvalid\b|\binvalid JSON\b/i.test(last.content));
        if (told) return reply(good);
        return kind === 'missing-summary' ? reply(withoutSummary(good)) : { text: invalidJson(good), chunkSize: 40 };
      }
    }
  };
}

/** The file and its chunks as the first user message of the request shows them. */
export function readIndexingPrompt(request: ChatBody): IndexingPrompt | undefined {
  const messages = readRequest(request).messages;
  if (!messages.some((m) => m.role === 'system' && m.content.includes(SYSTEM_MARK))) return undefined;
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const path = /^File: (\S+)/m.exec(user)?.[1];
  if (!path) return undefined;
  const chunks: PromptChunk[] = [];
  let current: PromptChunk | undefined;
  for (const line of user.split('\n')) {
    const header = /^Chunk (\d+) of \d+: ([^,]+), lines (\d+)-(\d+)( \(clipped[^)]*\))?$/.exec(line);
    if (header) {
      const [kind, ...name] = header[2]!.split(' ');
      current = {
        number: Number(header[1]),
        kind: kind!,
        ...(name.length > 0 && { name: name.join(' ') }),
        startLine: Number(header[3]),
        endLine: Number(header[4]),
        clipped: header[5] !== undefined,
        lines: [],
      };
      chunks.push(current);
      continue;
    }
    const numbered = /^(\d+)\| ?(.*)$/.exec(line);
    if (numbered && current) current.lines.push({ line: Number(numbered[1]), text: numbered[2]! });
  }
  return { path, chunks };
}

function goodAnswer(prompt: IndexingPrompt) {
  const entities: SeenEntity[] = [];
  const relations: SeenRelation[] = [];
  const all = prompt.chunks.flatMap((c) => c.lines);
  for (const { line, text } of all) {
    const declared = declaration(text);
    if (declared) {
      entities.push({ ...declared, line });
      if (declared.extends) relations.push({ from: declared.name, kind: 'extends', to: declared.extends, line });
    }
    const imported = /^\s*import\b.*?from\s+['"]([^'"]+)['"]/.exec(text);
    if (imported) relations.push({ from: fileName(prompt.path), kind: 'imports', to: imported[1]!, line });
  }
  // Calls: a declared function's name followed by "(" inside another entity's lines.
  const functions = new Set(entities.filter((e) => e.kind === 'function' || e.kind === 'method').map((e) => e.name));
  for (const { line, text } of all) {
    const owner = [...entities].reverse().find((e) => e.line <= line);
    if (!owner || declaration(text)) continue;
    for (const m of text.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)) {
      const callee = m[1]!;
      if (functions.has(callee) && callee !== owner.name) relations.push({ from: owner.name, kind: 'calls', to: callee, line });
    }
  }
  const chunks = prompt.chunks.map((c) => {
    const inside = entities.filter((e) => e.line >= c.startLine && e.line <= c.endLine).map((e) => `${e.kind} ${e.name}`);
    const what = inside.length > 0 ? `Declares ${inside.join(', ')}` : `${c.kind}${c.name ? ` ${c.name}` : ''}`;
    return { chunk: c.number, start_line: c.startLine, summary: `${what} (lines ${c.startLine}-${c.endLine}).` };
  });
  const names = entities.map((e) => e.name);
  const summary = names.length > 0 ? `${prompt.path} declares ${names.join(', ')}.` : `${prompt.path} has ${prompt.chunks.length} chunks.`;
  return { summary, chunks, entities, relations };
}

function declaration(text: string): { name: string; kind: string; extends?: string } | undefined {
  const fn = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/.exec(text);
  if (fn) return { name: fn[1]!, kind: 'function' };
  const cls = /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)(?:\s+extends\s+([A-Za-z_$][\w$.]*))?/.exec(text);
  if (cls) return { name: cls[1]!, kind: 'class', ...(cls[2] && { extends: cls[2] }) };
  const iface = /^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)/.exec(text);
  if (iface) return { name: iface[1]!, kind: 'interface' };
  const type = /^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*=/.exec(text);
  if (type) return { name: type[1]!, kind: 'type' };
  const constant = /^(?:export\s+)?(?:const|let)\s+([A-Za-z_$][\w$]*)\s*[:=]/.exec(text);
  if (constant) return { name: constant[1]!, kind: 'variable' };
  const method = /^\s+(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$/.exec(text);
  if (method && !/^(if|for|while|switch|catch|function|return)$/.test(method[1]!)) return { name: method[1]!, kind: 'method' };
  return undefined;
}

/** How a weak model fills the schema: strings for numbers, extra fields, a nameless entity, its own relation word. */
function clumsy(good: ReturnType<typeof goodAnswer>) {
  return {
    summary: good.summary,
    confidence: 'high',
    chunks: good.chunks.map((c) => ({ index: String(c.chunk), lines: `${c.start_line}-`, summary: c.summary })),
    entities: [
      ...good.entities.map((e) => ({ name: e.name, kind: e.kind, line: String(e.line), exported: true })),
      { kind: 'variable', line: String(good.entities[0]?.line ?? 1) },
    ],
    relations: good.relations.map((r) => ({ ...r, kind: r.kind === 'calls' ? 'invokes' : r.kind, ...(r.line !== undefined && { line: String(r.line) }) })),
  };
}

/** The chunks that declare something, numbered from `base` in order; entity lines counted from the first kept chunk. */
function ownNumbering(prompt: IndexingPrompt, good: ReturnType<typeof goodAnswer>, base: number) {
  const kept = good.chunks.filter((c) => /^Declares /.test(c.summary));
  const firstKept = prompt.chunks.find((c) => c.number === kept[0]?.chunk)?.startLine ?? 1;
  return {
    summary: good.summary,
    chunks: kept.map((c, i) => ({ chunk: base + i, summary: c.summary.replace(/ \(lines \d+-\d+\)/, '') })),
    entities: good.entities.map((e) => ({ ...e, line: e.line - firstKept + 1 })),
    relations: good.relations,
  };
}

function withoutSummary(good: ReturnType<typeof goodAnswer>) {
  const { summary: _dropped, ...rest } = good;
  return rest;
}

/** A missing comma and a cut-off end, as when a model loses its place. */
function invalidJson(good: ReturnType<typeof goodAnswer>): string {
  const text = JSON.stringify(good);
  return text.replace('","chunks"', '" "chunks"').slice(0, Math.max(20, text.length - 10));
}

function fileName(path: string): string {
  return path.split('/').pop() ?? path;
}
