// The retrieval event and the index-summary saving, as the chat panel and the log see them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent, RetrievalEvent } from '../../../../src/core/agent/events';
import { agentEventToChatEvents } from '../../../../src/editor/chat/agentEventMapping';
import { describeEventForLog } from '../../../../src/editor/log/eventLog';

const retrieval: RetrievalEvent = {
  type: 'retrieval',
  query: 'where is the config parsed?',
  method: 'keywords',
  items: [{ rank: 1, file: 'src/config.ts', startLine: 10, endLine: 42, score: 0.7, why: 'shares config, parse with the request', neighbours: 1 }],
  tokens: 120,
};

test('a retrieval shows in "what the model knows", not in the chat; only its notice is a chat line', () => {
  assert.deepEqual(agentEventToChatEvents(retrieval), []);
  assert.deepEqual(agentEventToChatEvents({ ...retrieval, notice: 'No embedding model; retrieval uses keywords.' }), [
    { type: 'notice', text: 'No embedding model; retrieval uses keywords.' },
  ]);
  assert.deepEqual(describeEventForLog(retrieval), {
    level: 'debug',
    message: 'retrieved 1 chunks (keywords, 120 prompt tokens): src/config.ts:10-42',
  });
});

test('a compression that used index summaries says what they saved', () => {
  const base: AgentEvent = { type: 'compression', method: 'index', reason: 'threshold', tokensBefore: 3000, tokensAfter: 1800, messagesAffected: 2, window: 4096, targetMet: true, modelCalls: 0, budget: { used: 0, limit: 4 } };
  const [line] = agentEventToChatEvents({ ...base, indexTokensSaved: 1200 });
  assert.deepEqual(line, { type: 'notice', text: 'Compressed the conversation (index): 3000 → 1800 tokens, 2 messages affected; index summaries saved 1200 tokens.' });
  const [plain] = agentEventToChatEvents(base);
  assert.equal(plain?.type === 'notice' && plain.text.includes('index summaries'), false);
});
