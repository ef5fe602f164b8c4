// Issue 10, retrieval as a prompt part: the session asks the index once per turn with the user's request (the
// turn's AbortSignal), sends the chunks with the turn's request — at the tail, never in the system prompt, which
// stays byte-identical for the server's prompt cache (issue 19) — in every model call of that turn within a share
// of the window, says what it retrieved in one `retrieval` event, and goes on without retrieved code when the
// index fails. A real AgentSession against the fake Ollama server, with the weak reader model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, RetrievalEvent } from '../../../src/core/agent/events';
import { estimateTokens } from '../../../src/core/tokens';
import { readerTask } from '../../helpers/weakModels/readerModel';
import { featureWorkspace, functionName, moduleName } from '../../helpers/knowledge/featureModules';
import { startReader } from '../../helpers/knowledge/readerRun';
import { WordRetriever } from '../../helpers/knowledge/wordRetriever';
import type { ChatBody } from '../../helpers/fakeLlm';

const WINDOW = 4096;
const COUNT = 3;
const FUNCTIONS = 3;
const PREAMBLE = 'Retrieved from the workspace index';
const NOTICE = 'No embedding model on the server; retrieval uses keywords.';

async function retrieverFor(root: string): Promise<WordRetriever> {
  const files = Array.from({ length: COUNT }, (_, i) => moduleName(i + 1));
  await featureWorkspace({ count: COUNT, functions: FUNCTIONS, indexed: [], root });
  // One chunk per function, named after it (as the index would cut these modules).
  return WordRetriever.fromFiles(root, files, 9, (file, i) => functionName(Number(/feature(\d+)/.exec(file)![1]), i));
}

const systemOf = (request: ChatBody) => String(request.messages?.[0]?.content ?? '');
/** The user's request of the turn as sent: its text, then what the harness added to it (retrieved code). */
const requestOf = (request: ChatBody, task: string) =>
  String(request.messages?.find((m) => m.role === 'user' && String(m.content).includes(task.split('\n')[0]!))?.content ?? '');
const retrievals = (events: readonly AgentEvent[]) => events.filter((e): e is RetrievalEvent => e.type === 'retrieval');

test('retrieval runs once per turn, after turn_start and before the first model call, and its chunks are in every request of the turn', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-retrieval-'));
  const retriever = await retrieverFor(root);
  retriever.notice = NOTICE;
  const reader = await startReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: false, retriever, k: 2, root });
  try {
    const task = `${readerTask(reader.files)}\nMind feature2 and step2_1 most.`;
    const outcome = await reader.session.send(task, new AbortController().signal);
    assert.equal(outcome.reason, 'task_completion');
    assert.ok(outcome.rounds > 2, `a turn of several model calls (${outcome.rounds})`);

    assert.equal(retriever.calls.length, 1, 'asked once for the whole turn');
    const call = retriever.calls[0]!;
    assert.equal(call.query, task);
    assert.equal(call.k, 2);
    assert.ok(call.signal instanceof AbortSignal && !call.signal.aborted);

    const found = retrievals(reader.events);
    assert.equal(found.length, 1);
    const event = found[0]!;
    const at = reader.events.indexOf(event);
    assert.ok(reader.events.findIndex((e) => e.type === 'turn_start') < at, 'after turn_start');
    assert.ok(at < reader.events.findIndex((e) => e.type === 'usage'), 'before the first model reply');
    assert.equal(event.method, 'keywords');
    assert.equal(event.notice, NOTICE);
    assert.equal(event.query, task);
    assert.equal(event.items.length, 2);
    const top = event.items[0]!;
    assert.deepEqual({ rank: top.rank, file: top.file, name: top.name, neighbours: top.neighbours }, { rank: 1, file: 'src/feature2.ts', name: 'step2_1', neighbours: 0 });
    assert.match(top.why, /shares .* with the request/);
    // Within 15 % of the window (and the 1,500-token cap).
    assert.ok(event.tokens > 0 && event.tokens <= Math.floor(WINDOW * 0.15), `${event.tokens} tokens`);

    // Every agent request of the turn carries the chunks with the request (the first one included), the same bytes
    // each time; the system prompt never does.
    const agentRequests = reader.requests.filter((_r, i) => !reader.windowed.measured[i]!.compression);
    assert.equal(agentRequests.length, outcome.rounds);
    const sentFirst = requestOf(agentRequests[0]!, task);
    for (const request of agentRequests) {
      const sent = requestOf(request, task);
      assert.ok(sent.startsWith(task), 'the request comes first');
      assert.ok(sent.includes(PREAMBLE), sent.slice(0, 400));
      assert.ok(sent.includes(`${top.file}:${top.startLine}-${top.endLine}`));
      assert.ok(sent.includes('Scales every value of feature 2, stage 1'), 'the chunk text itself');
      assert.equal(sent, sentFirst, 'byte-identical in every request of the turn');
      assert.ok(!systemOf(request).includes(PREAMBLE), 'not in the system prompt');
    }
    const part = sentFirst.slice(sentFirst.indexOf(PREAMBLE));
    assert.ok(estimateTokens(part.split('\n\n# ')[0]!) <= Math.floor(WINDOW * 0.15) + 10, 'the part stays within its budget');

    // The next turn asks again; the retriever's news is not repeated.
    const second = await reader.session.send(readerTask(reader.files.slice(0, 1)), new AbortController().signal);
    assert.equal(second.reason, 'task_completion');
    assert.equal(retriever.calls.length, 2);
    const again = retrievals(reader.events);
    assert.equal(again.length, 2);
    assert.equal(again[1]!.notice, undefined, 'the notice was said once');
    assert.equal(again[1]!.query, readerTask(reader.files.slice(0, 1)));
  } finally {
    await reader.close();
  }
});

test('a failing index never fails the turn: one notice, no retrieval event, no retrieved code in the prompt', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-retrieval-'));
  const retriever = await retrieverFor(root);
  retriever.failing = 'the knowledge database is locked';
  const reader = await startReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: false, retriever, root });
  try {
    const outcome = await reader.session.send(readerTask(reader.files), new AbortController().signal);
    assert.equal(outcome.reason, 'task_completion');
    assert.equal(retriever.calls.length, 1, 'not retried every round');
    assert.equal(retrievals(reader.events).length, 0);
    const notices = reader.events.filter((e) => e.type === 'notice' && e.message.includes('the knowledge database is locked'));
    assert.equal(notices.length, 1);
    assert.match(notices[0]!.type === 'notice' ? notices[0]!.message : '', /could not be searched .*without retrieved code/);
    for (const request of reader.requests) assert.ok(!JSON.stringify(request.messages).includes(PREAMBLE));
  } finally {
    await reader.close();
  }
});

test('an empty index: asked once, no event, no part', async () => {
  const retriever = new WordRetriever([]);
  const reader = await startReader({ window: WINDOW, count: COUNT, functions: FUNCTIONS, summaries: false, retriever });
  try {
    const outcome = await reader.session.send(readerTask(reader.files), new AbortController().signal);
    assert.equal(outcome.reason, 'task_completion');
    assert.equal(retriever.calls.length, 1);
    assert.equal(retrievals(reader.events).length, 0);
    for (const request of reader.requests) assert.ok(!JSON.stringify(request.messages).includes(PREAMBLE));
  } finally {
    await reader.close();
  }
});
