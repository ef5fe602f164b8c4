// The reply guard: a repeated passage at the end of a reply is found (where it starts, its length, how often),
// ordinary text and short decorations are not loops, and a reply over the limit is cut at the limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReplyGuard, findRepeatingTail } from '../../../src/core/analysis/replyGuard';
import { boundedStream, maxReplyCharsFor } from '../../../src/core/resilience/boundedReplies';
import type { StreamDelta } from '../../../src/core/provider';

test('a repeated line at the end is found with its start, period and count', () => {
  const unit = 'I will check the file again.\n';
  const loop = findRepeatingTail(`Intro. ${unit.repeat(60)}`);
  assert.deepEqual(loop, { start: 7, period: unit.length, repeats: 60 });
});

test('ordinary prose, a short ruler and a few repeats are not loops', () => {
  const prose = Array.from({ length: 400 }, (_, i) => `word${(i * 7919) % 97}`).join(' ');
  assert.equal(findRepeatingTail(prose), undefined);
  assert.equal(findRepeatingTail(`${prose}\n${'='.repeat(80)}`), undefined);
  assert.equal(findRepeatingTail(`${prose}\n${'same line\n'.repeat(5)}`), undefined);
});

test('the guard stops a loop and cuts an over-long reply at the limit', () => {
  const guard = new ReplyGuard({ maxChars: 1_000_000 });
  let stop;
  for (let i = 0; i < 500 && !stop; i++) stop = guard.push('ab '.repeat(20));
  assert.equal(stop?.kind, 'loop');
  const long = new ReplyGuard({ maxChars: 5000 });
  let cut;
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < 100 && !cut; i++) cut = long.push(Array.from({ length: 100 }, () => String.fromCharCode(33 + (next() % 90))).join(''));
  assert.deepEqual(cut, { kind: 'too_long', keep: 5000, limit: 5000 });
});

test('the bounded stream keeps the text up to the cut, adds the note, ends cleanly and stops reading', async () => {
  let pulled = 0;
  async function* source(): AsyncGenerator<StreamDelta> {
    for (let i = 0; i < 1000; i++) {
      pulled++;
      yield { type: 'text', text: String.fromCharCode(65 + (i % 26)).repeat(7) + String(i) };
    }
    yield { type: 'done', finishReason: 'stop' };
  }
  let text = '';
  const types: string[] = [];
  for await (const d of boundedStream(source(), 4000)) {
    types.push(d.type);
    if (d.type === 'text') text += d.text;
  }
  assert.ok(pulled < 1000, 'the source was left early');
  assert.ok(text.startsWith('AAAAAAA0BBBBBBB1'));
  assert.match(text, /\n\n\[The reply was cut at 4,000 characters/);
  assert.equal(text.indexOf('\n\n['), 4000);
  assert.deepEqual(types.slice(-3), ['status', 'text', 'done']);
  assert.equal(maxReplyCharsFor({ contextSize: 8192 }), 12_288);
  assert.equal(maxReplyCharsFor({ contextSize: 8192 }, { maxReplyChars: 2000 }), 2000);
});

test('text held back while it might be a loop is shown in full, in order, once the repetition moves on', async () => {
  const line = 'const value = compute(input);\n';
  const parts = ['Start.\n', ...Array.from({ length: 5 }, () => line), ...Array.from({ length: 300 }, (_, i) => `different line number ${i}\n`)];
  async function* source(): AsyncGenerator<StreamDelta> {
    for (const p of parts) yield { type: 'text', text: p };
    yield { type: 'tool_call', call: { id: 'c1', name: 'read_file', arguments: {} } };
    yield { type: 'done', finishReason: 'stop' };
  }
  let text = '';
  const order: string[] = [];
  for await (const d of boundedStream(source(), 1_000_000)) {
    if (d.type === 'text') text += d.text;
    if (order.at(-1) !== d.type) order.push(d.type);
  }
  assert.equal(text, parts.join(''));
  assert.deepEqual(order, ['text', 'tool_call', 'done']);
});
