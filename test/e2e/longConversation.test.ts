// A 2,000-message conversation stays responsive: build it through the real UI, host and fake server, then
// measure how long a fresh view takes to render the host's snapshot of all of it, and how fast a new
// streamed answer shows with all of it on screen. The numbers are printed for the README.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';

/**
 * The conversation grows the way an agent conversation does: each model call answers with a short markdown
 * message and one read_file call (auto-approved), so every round adds an assistant message and a tool
 * result. A turn of ROUNDS model calls adds 1 user + ROUNDS assistant + (ROUNDS - 1) tool messages: 400.
 * (Driving 1,000 separate user turns instead takes minutes on a loaded 2-core machine.)
 */
const ROUNDS = 200;
const TURNS = Number(process.env.LOCALHARNESS_E2E_LONG_TURNS ?? 5);
const MESSAGES = TURNS * (1 + ROUNDS + (ROUNDS - 1));
const NOTES = 20;

let steps = 0;
const script = markerScript({
  '[[bulk]]': (round) => {
    steps++;
    const text =
      steps % 5 === 0
        ? `Step ${steps}: checking the **next** note.\n\n\`\`\`ts\nconst step = ${steps};\n\`\`\``
        : `Step ${steps}: the value is \`${steps * 7}\`; see [docs](https://example.com/${steps}).`;
    if (round >= ROUNDS - 1) return { text: `${text}\n\nAll notes read.` };
    return { text, chunkSize: 40, toolCalls: [{ name: 'read_file', arguments: { path: `notes/n${steps % NOTES}.md` } }] };
  },
  '[[final]]': [
    {
      thinking: 'One more answer after a long conversation.',
      text: Array.from({ length: 30 }, (_, i) => `Streamed line ${i + 1} of the final answer.`).join('\n\n') + '\n\nFinal answer complete.',
      chunkSize: 5,
      chunkDelayMs: 10,
    },
  ],
});

/**
 * Runs in the webview: sends one message and times, from the Send click, when the user message shows,
 * when the first streamed words show, when the answer is complete and when the turn is idle; meanwhile it
 * records the longest gap between animation frames (how long the page was unresponsive at worst).
 * Kept as source text because the test runner's transform adds helpers the page does not have.
 */
const TIME_STREAMED_ANSWER = `async (text) => {
  const input = document.querySelector('textarea[aria-label="Message"]');
  const buttons = [...document.querySelectorAll('button')];
  const send = buttons.find((b) => b.textContent === 'Send');
  const stop = buttons.find((b) => b.textContent === 'Stop');
  const waitFor = (check, ms, what) => new Promise((resolve, reject) => {
    const deadline = performance.now() + ms;
    const poll = () => {
      if (check()) resolve();
      else if (performance.now() > deadline) reject(new Error('timed out waiting for ' + what));
      else setTimeout(poll, 2);
    };
    poll();
  });
  const users0 = document.querySelectorAll('.message-user').length;
  const answers0 = document.querySelectorAll('.message-assistant').length;
  const lastAnswer = () => {
    const all = document.querySelectorAll('.message-assistant');
    return all.length > answers0 ? all[all.length - 1].querySelector('.message-body').textContent : '';
  };
  let maxGap = 0, frames = 0, last = performance.now(), running = true;
  const tick = (t) => { if (!running) return; maxGap = Math.max(maxGap, t - last); last = t; frames++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await waitFor(() => !send.disabled, 5000, 'Send to be enabled');
  const t0 = performance.now();
  send.click();
  await waitFor(() => document.querySelectorAll('.message-user').length > users0, 10000, 'the user message');
  const userShownMs = performance.now() - t0;
  await waitFor(() => lastAnswer().includes('Streamed line 1'), 15000, 'the first streamed words');
  const firstTextMs = performance.now() - t0;
  await waitFor(() => lastAnswer().includes('Final answer complete.'), 30000, 'the whole answer');
  const completeMs = performance.now() - t0;
  await waitFor(() => stop.disabled, 10000, 'the turn to end');
  const idleMs = performance.now() - t0;
  running = false;
  return { userShownMs, firstTextMs, completeMs, idleMs, maxFrameGapMs: maxGap, frames };
}`;

let session: E2ESession;

before(async () => {
  session = await E2ESession.start({
    name: 'long',
    script,
    // A window large enough that 2,000 messages never trigger compression (which would change the history).
    contextLength: 1_048_576,
    settings: { 'localharness.contextSize': 1_048_576, 'localharness.maxRounds': ROUNDS },
    files: Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`notes/n${i}.md`, `# Note ${i}\n\nSome text in note ${i}.\n`])),
  });
  await session.step('open panel', () => session.chat.open());
}, { timeout: 240_000 });

after(async () => {
  await session?.close();
}, { timeout: 60_000 });

interface AppMetrics {
  snapshotMs: number;
  snapshotItems: number;
  maxFrameMs: number;
  slowFrames: number;
}

/** What the webview itself measured (it publishes its frame and snapshot timings on the root element). */
async function appMetrics(): Promise<AppMetrics> {
  const frame = await session.chat.contentFrame();
  return frame.evaluate(() => {
    const d = (document.querySelector('.app') as HTMLElement | null)?.dataset ?? {};
    return {
      snapshotMs: Number(d['snapshotMs'] ?? NaN),
      snapshotItems: Number(d['snapshotItems'] ?? NaN),
      maxFrameMs: Number(d['maxFrameMs'] ?? NaN),
      slowFrames: Number(d['slowFrames'] ?? NaN),
    };
  });
}

/** User and assistant messages and tool results shown in the panel. */
async function conversationSize(): Promise<number> {
  return session.chat.frame.locator('.message-user, .message-assistant, .tool-card').count();
}

/** Scrolls the panel up like a user until every older item is built (the list says how many are left). */
async function scrollToOldest(): Promise<void> {
  const frame = await session.chat.contentFrame();
  await frame.evaluate(async () => {
    const scroller = document.querySelector('.conversation') as HTMLElement;
    const list = document.querySelector('.items') as HTMLElement;
    const deadline = performance.now() + 60_000;
    while (list.dataset['unbuilt'] !== '0') {
      if (performance.now() > deadline) throw new Error(`${list.dataset['unbuilt']} items still unbuilt`);
      scroller.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    scroller.scrollTop = scroller.scrollHeight; // back to following the stream, as before
  });
}

describe('long conversation', { timeout: 300_000 }, () => {
  test(`builds a ${MESSAGES}-message conversation through the panel`, async () => {
    await session.step('build conversation', async () => {
      const chat = session.chat;
      const started = Date.now();
      for (let turn = 1; turn <= TURNS; turn++) {
        await chat.send(`[[bulk]] Read the notes, pass ${turn}.`);
        await chat.assistantMessages.filter({ hasText: 'All notes read.' }).nth(turn - 1).waitFor({ timeout: 120_000 });
        await chat.waitIdle();
        // The fake server keeps every request body; with the whole history in each one that grows to
        // hundreds of megabytes, and this test only needs the replies.
        session.llm.requests.length = 0;
        session.llm.log.length = 0;
      }
      const buildMs = Date.now() - started;
      const messages = await conversationSize();
      console.log(`[e2e] long conversation: built ${messages} messages (${TURNS} turns of ${ROUNDS} model calls) in ${(buildMs / 1000).toFixed(1)} s`);
      assert.equal(await chat.errorMessages.count(), 0, 'no errors while building');
      assert.equal(messages, MESSAGES);
    });
  });

  test('a fresh view renders the whole conversation from the host snapshot quickly', async () => {
    await session.step('snapshot render', async () => {
      const chat = session.chat;
      // Hide the view (its webview is disposed) and show it again: the new webview asks for a snapshot.
      await session.workbench.activityBarItem('Explorer').click();
      await chat.message.waitFor({ state: 'hidden', timeout: 10_000 });
      const started = Date.now();
      await session.workbench.activityBarItem('Local Harness').click();
      await chat.message.waitFor({ state: 'visible', timeout: 30_000 });
      await chat.frame.locator('.app[data-snapshot-items]').waitFor({ state: 'attached', timeout: 30_000 });
      await chat.assistantMessages.last().filter({ hasText: 'All notes read.' }).waitFor({ timeout: 10_000 });
      const wallMs = Date.now() - started;
      const metrics = await appMetrics();
      console.log(`[e2e] long conversation: snapshot of ${metrics.snapshotItems} messages rendered in ${metrics.snapshotMs.toFixed(0)} ms inside the webview; click to last message shown ${wallMs} ms`);
      // Only the newest items are built on opening; scrolling up builds the rest, every one of them.
      assert.ok((await conversationSize()) < MESSAGES, 'older items wait until scrolled to');
      await scrollToOldest();
      assert.equal(await conversationSize(), MESSAGES);
      assert.ok(metrics.snapshotItems >= MESSAGES, `the snapshot carried ${metrics.snapshotItems} items`);
      assert.ok(metrics.snapshotMs < 3_000, `rendering ${MESSAGES} messages took ${metrics.snapshotMs} ms`);
      assert.ok(wallMs < 15_000, `the view took ${wallMs} ms to show the conversation`);
      await session.screenshot('01-snapshot');
    });
  });

  test('a new streamed answer shows promptly with the whole conversation on screen', async () => {
    await session.step('stream after long history', async () => {
      const frame = await session.chat.contentFrame();
      const timing = (await frame.evaluate(`(${TIME_STREAMED_ANSWER})('[[final]] One more question after all that.')`)) as {
        userShownMs: number;
        firstTextMs: number;
        completeMs: number;
        idleMs: number;
        maxFrameGapMs: number;
        frames: number;
      };
      const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
      console.log(
        `[e2e] long conversation: new message with ${MESSAGES} on screen — user message shown ${fmt(timing.userShownMs)}, first streamed words ${fmt(timing.firstTextMs)}, ` +
          `answer complete ${fmt(timing.completeMs)}, idle ${fmt(timing.idleMs)}; longest frame gap ${fmt(timing.maxFrameGapMs)} over ${timing.frames} frames`,
      );
      assert.ok(timing.userShownMs < 1_000, `the user message took ${timing.userShownMs} ms to show`);
      assert.ok(timing.firstTextMs < 3_000, `the first streamed words took ${timing.firstTextMs} ms`);
      assert.ok(timing.maxFrameGapMs < 1_000, `the page froze for ${timing.maxFrameGapMs} ms`);
      await session.chat.waitIdle();
      await session.screenshot('02-streamed-after-long-history');
    });
  });

  test('the extension host logged no errors from Local Harness', () => {
    const errors = session.extensionHostErrors();
    assert.deepEqual(errors, [], `errors in the extension host log:\n${errors.slice(0, 3).join('\n\n')}`);
  });
});
