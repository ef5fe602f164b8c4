import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTokens, statusText, statusTooltip } from '../../../src/editor/status/statusText';
import { selectionLines } from '../../../src/editor/selectionLines';

test('token counts are short', () => {
  assert.deepEqual([0, 950, 1000, 1234, 8000, 12_345, 1_200_000].map(formatTokens), ['0', '950', '1k', '1.2k', '8k', '12k', '1.2M']);
  // Window sizes are powers of two and read the way people name them.
  assert.deepEqual([4096, 8192, 32768, 40960, 131_072].map(formatTokens), ['4k', '8k', '32k', '40k', '128k']);
});

test('the status shows model and usage, and what state it is in', () => {
  assert.equal(statusText({ model: 'qwen3', used: 1234, available: 8192, busy: false }), '$(hubot) qwen3 · 1.2k/8k');
  assert.equal(statusText({ model: '', used: 0, available: null, busy: true }), '$(loading~spin) no model · 0/?');
  assert.equal(statusText({ model: 'm', used: 0, available: 4096, busy: false, unreachable: 'down', restricted: true }), '$(debug-disconnect) m · 0/4k $(shield)');
  const tip = statusTooltip({ model: 'qwen3', used: 1234, available: 8192, busy: false, restricted: true });
  assert.match(tip, /1,234 of 8,192 tokens/);
  assert.match(tip, /Restricted Mode/);
  assert.match(tip, /Click to open the chat/);
});

test('selections become 1-based inclusive line ranges; a cursor is no selection', () => {
  assert.equal(selectionLines({ line: 4, character: 2 }, { line: 4, character: 2 }), undefined);
  assert.deepEqual(selectionLines({ line: 4, character: 0 }, { line: 6, character: 3 }), { start: 5, end: 7 });
  assert.deepEqual(selectionLines({ line: 6, character: 3 }, { line: 4, character: 0 }), { start: 5, end: 7 }, 'backwards selection');
  assert.deepEqual(selectionLines({ line: 4, character: 0 }, { line: 6, character: 0 }), { start: 5, end: 6 }, 'ending at column 0 excludes that line');
  assert.deepEqual(selectionLines({ line: 2, character: 1 }, { line: 2, character: 5 }), { start: 3, end: 3 });
});
