// The CLI's output for a retrieval and for a compression by index summaries: a short status line in text mode,
// the event as it is in --json mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RetrievalEvent } from '../../../src/core/agent/events';
import { jsonRenderer, retrievalLine, textRenderer } from '../../../src/cli/render';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, render: textRenderer({ write: (s) => out.push(s) }, { write: (s) => err.push(s) }, false) };
}

const items = Array.from({ length: 7 }, (_, i) => ({ rank: i + 1, file: `src/m${i}.ts`, startLine: 1 + i * 10, endLine: 9 + i * 10, score: 1 - i / 10, why: 'similar', neighbours: 0 }));
const event: RetrievalEvent = { type: 'retrieval', query: 'q', method: 'vectors', items, tokens: 640 };

test('text mode: one dim status line naming the first chunks, and the notice on its own line', () => {
  const c = capture();
  c.render({ type: 'text', text: 'partial' });
  c.render({ ...event, notice: 'retrieval uses keywords' });
  assert.equal(c.out.join(''), 'partial\n[retrieval uses keywords]\n[retrieved 7 chunks (vectors, 640 tokens): src/m0.ts:1-9, src/m1.ts:11-19, src/m2.ts:21-29, src/m3.ts:31-39, src/m4.ts:41-49, … 2 more]\n');
  assert.deepEqual(c.err, []);
  assert.equal(retrievalLine({ ...event, items: items.slice(0, 1), tokens: 0 }), 'retrieved 1 chunk (vectors, left out of the prompt): src/m0.ts:1-9');
  const noticeOnly = capture();
  noticeOnly.render({ ...event, items: [], notice: 'no index yet' });
  assert.equal(noticeOnly.out.join(''), '[no index yet]\n');
});

test('text mode names what index summaries saved; --json prints the events as they are', () => {
  const c = capture();
  c.render({ type: 'compression', method: 'index', reason: 'threshold', tokensBefore: 3000, tokensAfter: 1800, messagesAffected: 2, window: 4096, targetMet: true, modelCalls: 0, budget: { used: 0, limit: 4 }, indexTokensSaved: 1200 });
  assert.equal(c.out.join(''), '[compressed context (index): 3000 → 1800 tokens of 4096; index summaries saved 1200]\n');
  const lines: string[] = [];
  const json = jsonRenderer({ write: (s) => lines.push(s) });
  json(event);
  assert.deepEqual(JSON.parse(lines[0]!), event);
});

test('text mode: a long MCP call\u2019s progress reports each get a line under the call', () => {
  const c = capture();
  c.render({ type: 'tool_call', id: 'c1', name: 'everything__trigger-long-running-operation', arguments: { duration: 2, steps: 2 } });
  c.render({ type: 'tool_progress', id: 'c1', name: 'everything__trigger-long-running-operation', message: 'progress 1/2' });
  c.render({ type: 'tool_progress', id: 'c1', name: 'everything__trigger-long-running-operation', message: 'progress 2/2' });
  const lines = c.out.join('').split('\n');
  assert.deepEqual(lines.slice(1, 3), ['  … progress 1/2', '  … progress 2/2']);
});

test('reading progress: a stderr line in text mode (the answer on stdout stays clean), the event with its counts in --json', () => {
  const c = capture();
  const reading = { type: 'status' as const, message: 'Reading the prompt: 6,200 / 12,000 tokens', reading: { processed: 6200, total: 12000 } };
  c.render({ type: 'status', message: 'loading model…' });
  c.render(reading);
  assert.equal(c.out.join(''), '[loading model…]\n');
  assert.equal(c.err.join(''), '[Reading the prompt: 6,200 / 12,000 tokens]\n');
  const lines: string[] = [];
  jsonRenderer({ write: (s) => lines.push(s) })(reading);
  assert.deepEqual(JSON.parse(lines[0]!), reading);
});
