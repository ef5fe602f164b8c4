// A deterministic mixed corpus (English prose, TypeScript, JSON), and conversations built from it, for
// calibration tests and the token bench.
import type { ChatMessage } from '../../../src/core/messages';

/** mulberry32: a small seeded PRNG so every run sees the same corpus. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to in is it and for on with that this be as at by from or an we you not but can will all one so if ' +
  'the agent reads each file before it edits anything and then checks the result with the tests when a change fails it ' +
  'explains why and tries a smaller step configuration window context model server request response user workspace ' +
  'compression summary history message budget token estimate calibration factor average window truncation warning'
).split(' ');
const IDENTS = ['userId', 'handleRequest', 'contextWindow', 'parseArguments', 'tokenCount', 'maxRetries', 'isReady', 'buildSummaryText', 'cfg', 'i'];

export type DocKind = 'prose' | 'code' | 'json';

export function prose(rand: () => number, sentences: number): string {
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const len = 8 + Math.floor(rand() * 14);
    const words = Array.from({ length: len }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    out.push(words.join(' ') + (rand() < 0.2 ? ', for example in 2 of 3 cases.' : '.'));
  }
  return out.join(' ');
}

export function code(rand: () => number, functions: number): string {
  const pick = () => IDENTS[Math.floor(rand() * IDENTS.length)]!;
  const out: string[] = [];
  for (let f = 0; f < functions; f++) {
    const name = pick();
    out.push(`export function ${name}${f}(${pick()}: number, ${pick()}: string[]): Promise<void> {`);
    const lines = 3 + Math.floor(rand() * 6);
    for (let l = 0; l < lines; l++) {
      const r = rand();
      if (r < 0.3) out.push(`  const ${pick()} = await this.${pick()}(${pick()}, { retries: ${Math.floor(rand() * 100)} });`);
      else if (r < 0.6) out.push(`  if (${pick()} > ${Math.floor(rand() * 1000)} && !${pick()}) {\n    throw new Error(\`bad ${pick()}: \${${pick()}}\`);\n  }`);
      else if (r < 0.8) out.push(`  for (let i = 0; i < ${pick()}.length; i++) ${pick()}[i] += ${Math.floor(rand() * 10)};`);
      else out.push(`  // ${prose(rand, 1)}`);
    }
    out.push('}\n');
  }
  return out.join('\n');
}

export function json(rand: () => number, items: number): string {
  const rows = Array.from({ length: items }, (_, i) => ({
    id: i + Math.floor(rand() * 1000),
    name: IDENTS[Math.floor(rand() * IDENTS.length)],
    enabled: rand() < 0.5,
    tags: [WORDS[Math.floor(rand() * WORDS.length)], WORDS[Math.floor(rand() * WORDS.length)]],
    score: Math.round(rand() * 10000) / 100,
  }));
  return JSON.stringify({ items: rows, total: items }, null, rand() < 0.5 ? 2 : undefined);
}

export function doc(rand: () => number, kind: DocKind): string {
  if (kind === 'prose') return prose(rand, 3 + Math.floor(rand() * 8));
  if (kind === 'code') return code(rand, 1 + Math.floor(rand() * 3));
  return json(rand, 2 + Math.floor(rand() * 8));
}

const KINDS: DocKind[] = ['prose', 'code', 'json'];

/**
 * Requests as an agent session sends them: a system prompt, then a conversation that grows each round with
 * a mix of user prose, assistant prose, code and JSON tool results.
 */
export function mixedRequests(seed: number, count: number): ChatMessage[][] {
  const rand = seeded(seed);
  const conversation: ChatMessage[] = [{ role: 'system', content: prose(rand, 6) }];
  const requests: ChatMessage[][] = [];
  for (let r = 0; r < count; r++) {
    const kind = KINDS[Math.floor(rand() * KINDS.length)]!;
    conversation.push({ role: r % 4 === 0 ? 'user' : 'assistant', content: prose(rand, 1 + Math.floor(rand() * 3)) });
    conversation.push({ role: 'tool', content: doc(rand, kind), toolCallId: `c${r}`, toolName: 'read_file' });
    // Sessions get compressed, so a request holds a sliding window of recent messages, not everything.
    const recent = conversation.slice(Math.max(1, conversation.length - 12));
    requests.push([conversation[0]!, ...recent]);
  }
  return requests;
}
