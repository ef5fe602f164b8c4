// A 2,000-message conversation stays responsive: build it through the real UI and host, then measure how
// long the snapshot of all of it takes to render in a fresh view and how fast a new streamed answer shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { markerScript } from '../helpers/e2e/markerScript';
import { E2ESession } from '../helpers/e2e/session';

/** User + assistant per turn: 1,000 turns make the 2,000 messages. */
const TURNS = Number(process.env.LOCALHARNESS_E2E_LONG_TURNS ?? 1000);
const MESSAGES = TURNS * 2;
/** Turns per in-page driver call. */
const BATCH = 100;

let replies = 0;
const script = markerScript({
  // Short, varied markdown answers, so every message exercises the markdown renderer.
  '[[bulk]]': [
    () => {
      replies++;
      return { text: `Answer ${replies}: the **value** is \`${replies * 7}\`.\n\n- checked item ${replies}\n- see [docs](https://example.com/${replies})`, chunkSize: 40 };
    },
  ],
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
 * Runs in the webview: types and sends `turns` messages like a user, each after the previous turn ended.
 * Kept as source text because the test runner's transform would add helpers the page does not have.
 */
const DRIVE_TURNS = `async (turns) => {
  const input = document.querySelector('textarea[aria-label="Message"]');
  const buttons = [...document.querySelectorAll('button')];
  const send = buttons.find((b) => b.textContent === 'Send');
  const stop = buttons.find((b) => b.textContent === 'Stop');
  const answers = () => document.querySelectorAll('.message-assistant').length;
  const waitFor = (check, ms) => new Promise((resolve, reject) => {
    const deadline = performance.now() + ms;
    const poll = () => {
      if (check()) resolve();
      else if (performance.now() > deadline) reject(new Error('stuck at ' + answers() + ' answers'));
      else setTimeout(poll, 2);
    };
    poll();
  });
  const first = answers();
  let slowest = 0;
  for (let i = 0; i < turns; i++) {
    const t0 = performance.now();
    input.value = '[[bulk]] Question ' + (i + 1) + '?';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await waitFor(() => !send.disabled, 10000);
    send.click();
    await waitFor(() => answers() >= first + i + 1 && stop.disabled && !document.querySelector('.message-assistant[data-streaming="true"]'), 20000);
    slowest = Math.max(slowest, performance.now() - t0);
  }
  return { slowestTurnMs: slowest, messages: document.querySelectorAll('.message-user, .message-assistant').length };
}`;

/**
 * Runs in the webview: sends one message and times, from the Send click, when the user message shows,
 * when the first streamed words show, when the answer is complete and when the turn is idle; meanwhile it
 * records the longest gap between animation frames (how long the page was unresponsive at worst).
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
    settings: { 'localharness.contextSize': 1_048_576 },
  });
  await session.chat.open();
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

describe('long conversation', { timeout: 300_000 }, () => {
  test(`builds a ${MESSAGES}-message conversation through the panel`, async () => {
    await session.step('build conversation', async () => {
      const chat = session.chat;
      const frame = await chat.contentFrame();
      const started = Date.now();
      let slowestTurnMs = 0;
      let messages = 0;
      for (let done = 0; done < TURNS; done += BATCH) {
        const turns = Math.min(BATCH, TURNS - done);
        const result = (await frame.evaluate(`(${DRIVE_TURNS})(${turns})`)) as { slowestTurnMs: number; messages: number };
        slowestTurnMs = Math.max(slowestTurnMs, result.slowestTurnMs);
        messages = result.messages;
        // The fake server keeps every request body; with the history in each one that would grow to
        // hundreds of megabytes, and this test only needs the replies.
        session.llm.requests.length = 0;
        session.llm.log.length = 0;
      }
      const buildMs = Date.now() - started;
      console.log(`[e2e] long conversation: built ${messages} messages in ${(buildMs / 1000).toFixed(1)} s (${(buildMs / TURNS).toFixed(1)} ms per turn, slowest turn ${slowestTurnMs.toFixed(0)} ms)`);
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
      await chat.frame.locator(`.app[data-snapshot-items="${MESSAGES}"]`).waitFor({ state: 'attached', timeout: 30_000 });
      await chat.assistantMessages.last().filter({ hasText: `Answer ${TURNS}:` }).waitFor({ timeout: 10_000 });
      const wallMs = Date.now() - started;
      const metrics = await appMetrics();
      console.log(`[e2e] long conversation: snapshot of ${metrics.snapshotItems} messages rendered in ${metrics.snapshotMs.toFixed(0)} ms inside the webview; click to last message shown ${wallMs} ms`);
      assert.equal(await chat.frame.locator('.message-user, .message-assistant').count(), MESSAGES);
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
});
