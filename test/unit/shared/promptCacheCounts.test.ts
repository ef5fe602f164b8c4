// The Context meter's word on the server's prompt cache: the reducer keeps the last request's counts and the turn's
// total (reset when a turn starts), and the tooltip lines say what the server read again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceChat } from '../../../src/shared/chatState';
import { rereadText } from '../../../src/shared/promptCacheText';
import { cacheLines } from '../../../webview-ui/controls';

test('usage with cache counts: the last request and the turn in total; a new turn starts the total over', () => {
  let state = reduceChat(initialChatState(4096), { type: 'turn_start', text: 'hi' });
  state = reduceChat(state, { type: 'usage', used: 1200, cache: { prompt: 1100, cached: 0, estimated: false } });
  state = reduceChat(state, { type: 'usage', used: 1300, cache: { prompt: 1200, cached: 1100, estimated: true } });
  assert.deepEqual(state.context.cache, { last: { prompt: 1200, cached: 1100, estimated: true }, turn: { prompt: 2300, cached: 1100, estimated: true } });
  assert.deepEqual(cacheLines(state.context.cache), [
    'Last request: the server re-read 100 of 1,200 prompt tokens (92% from its cache, estimated)',
    'This turn: the server re-read 1,200 of 2,300 prompt tokens (48% from its cache, estimated)',
  ]);
  state = reduceChat(state, { type: 'turn_start', text: 'again' });
  assert.deepEqual(state.context.cache?.turn, { prompt: 0, cached: 0, estimated: false });
  assert.deepEqual(cacheLines(state.context.cache), ['Last request: the server re-read 100 of 1,200 prompt tokens (92% from its cache, estimated)']);
});

test('usage without counts leaves the cache alone; nothing said before a prompt was counted', () => {
  const state = reduceChat(initialChatState(4096), { type: 'usage', used: 10 });
  assert.equal(state.context.cache, undefined);
  assert.deepEqual(cacheLines(undefined), []);
  assert.equal(rereadText({ prompt: 0, cached: 0, estimated: false }), '');
});
