// Timers the long-chat bench runs inside the chat webview (as source text: the test runner's transform would add
// helpers the page does not have). Each waits on the DOM with observers or short sleeps and returns its timings.

/**
 * Runs in the webview. Clicks a History row's Open and times (MutationObserver, so nothing polls) when the
 * last message of the session is in the DOM and the frame after that; then waits for the whole snapshot.
 * Source text: the test runner's transform adds helpers the page does not have.
 */
export const TIME_OPEN = `async ({ sessionTitle, last }) => {
  const app = document.querySelector('.app');
  delete app.dataset.snapshotItems;
  const button = [...document.querySelectorAll('.session-open')].find((b) => b.textContent === sessionTitle);
  if (!button) throw new Error('no History row ' + sessionTitle);
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  let shownAt = 0;
  const shown = new Promise((resolve) => {
    const observer = new MutationObserver((records) => {
      for (const r of records) for (const node of r.addedNodes) {
        if (node.nodeType === 1 && node.textContent.includes(last)) { shownAt = performance.now(); observer.disconnect(); resolve(); return; }
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  let maxGap = 0, last0 = performance.now(), running = true;
  const tick = (t) => { if (!running) return; maxGap = Math.max(maxGap, t - last0); last0 = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const t0 = performance.now();
  button.click();
  await Promise.race([shown, new Promise((_, rej) => setTimeout(() => rej(new Error('the last message never showed')), 60000))]);
  const paintedAt = await frame();
  const deadline = performance.now() + 120000;
  while (!app.dataset.snapshotItems) {
    if (performance.now() > deadline) throw new Error('the snapshot never finished rendering');
    await new Promise((r) => setTimeout(r, 20));
  }
  const settledAt = performance.now();
  running = false;
  return { shownMs: shownAt - t0, paintedMs: paintedAt - t0, settledMs: settledAt - t0, snapshotMs: Number(app.dataset.snapshotMs), items: Number(app.dataset.snapshotItems), maxFrameGapMs: maxGap };
}`;

/**
 * Runs in the webview: sends "[[tool]] file=<file>" and times from the Send click to (a) the frame after the
 * tool card for <file> shows done, (b) the frame after the answer naming <file> shows, (c) Stop disabled.
 */
export const TIME_TOOL_ROUND = `async ({ file }) => {
  const input = document.querySelector('textarea[aria-label="Message"]');
  const buttons = [...document.querySelectorAll('button')];
  const send = buttons.find((b) => b.textContent === 'Send');
  const stop = buttons.find((b) => b.textContent === 'Stop');
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const answer = 'Round trip ' + file + ' done.';
  let doneAt = 0, answerAt = 0, cardAt = 0;
  const isDoneCard = (el) => el.nodeType === 1 && el.classList.contains('tool-card') && el.dataset.status === 'done' && el.textContent.includes(file);
  const seen = new Promise((resolve) => {
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') { if (!doneAt && isDoneCard(r.target)) doneAt = performance.now(); continue; }
        for (const node of r.addedNodes) {
          if (node.nodeType !== 1) continue;
          const cards = node.classList.contains('tool-card') ? [node] : node.querySelectorAll ? node.querySelectorAll('.tool-card') : [];
          for (const c of cards) if (c.textContent.includes(file)) { if (!cardAt) cardAt = performance.now(); if (!doneAt && isDoneCard(c)) doneAt = performance.now(); }
        }
        if (!answerAt && r.type === 'childList') {
          const host = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          const msg = host && host.closest ? host.closest('.message-assistant') : null;
          if (msg && msg.textContent.includes(answer)) answerAt = performance.now();
          for (const node of r.addedNodes) if (!answerAt && node.nodeType === 1 && node.classList.contains('message-assistant') && node.textContent.includes(answer)) answerAt = performance.now();
        }
      }
      if (doneAt && answerAt) { observer.disconnect(); resolve(); }
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-status'], characterData: true });
  });
  input.value = '[[tool]] file=' + file + ' Read this file.';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => setTimeout(r, 0));
  if (send.disabled) throw new Error('Send stayed disabled');
  const t0 = performance.now();
  send.click();
  await Promise.race([seen, new Promise((_, rej) => setTimeout(() => rej(new Error('the tool round trip did not finish')), 60000))]);
  const painted = await frame();
  const deadline = performance.now() + 30000;
  while (!stop.disabled) {
    if (performance.now() > deadline) throw new Error('the turn did not end');
    await new Promise((r) => setTimeout(r, 5));
  }
  const idleAt = performance.now();
  return { toolDoneMs: doneAt - t0, cardShownMs: cardAt - t0, answerMs: answerAt - t0, answerPaintedMs: painted - t0, idleMs: idleAt - t0 };
}`;

/**
 * Runs in the webview: sends `marker`, counts the text the host delivered in 'events' messages (and any
 * snapshot, which would mean the host dropped a backlog), and compares the shown answer with the scripted text.
 * firstEpoch/lastEpoch: when the first and last text arrived, on the clock the bench's serverWrites use.
 */
export const TIME_STREAM = `async ({ marker, expected }) => {
  const input = document.querySelector('textarea[aria-label="Message"]');
  const buttons = [...document.querySelectorAll('button')];
  const send = buttons.find((b) => b.textContent === 'Send');
  const stop = buttons.find((b) => b.textContent === 'Stop');
  let textChars = 0, textEvents = 0, posts = 0, snapshots = 0, firstAt = 0, lastAt = 0;
  const onMessage = (e) => {
    const d = e.data;
    if (!d || typeof d !== 'object') return;
    if (d.type === 'snapshot') snapshots++;
    if (d.type !== 'events') return;
    posts++;
    for (const ev of d.events) if (ev.type === 'text') { textEvents++; textChars += ev.text.length; if (!firstAt) firstAt = performance.now(); lastAt = performance.now(); }
  };
  window.addEventListener('message', onMessage);
  let maxGap = 0, last = performance.now(), running = true;
  const tick = (t) => { if (!running) return; maxGap = Math.max(maxGap, t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  input.value = marker + ' Stream a long answer.';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => setTimeout(r, 0));
  const answers = () => document.querySelectorAll('.message-assistant');
  // The answer of this turn is the last one once there are more than now (an earlier stream ends the same way).
  const before = answers().length;
  const t0 = performance.now();
  send.click();
  const deadline = performance.now() + 120000;
  let shown = '';
  for (;;) {
    const all = answers();
    const el = all.length > before ? all[all.length - 1] : undefined;
    shown = el ? el.querySelector('.message-body').textContent : '';
    if (shown.includes('stream-end') && stop.disabled) break;
    if (performance.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const completeAt = performance.now();
  running = false;
  window.removeEventListener('message', onMessage);
  const norm = (s) => s.replace(/\\s+/g, '');
  const epoch = (t) => performance.timeOrigin + t;
  return { textChars, textEvents, posts, snapshots, firstMs: firstAt - t0, deliveryMs: lastAt - firstAt, completeMs: completeAt - t0, firstEpoch: epoch(firstAt), lastEpoch: epoch(lastAt), exact: norm(shown) === norm(expected), shownChars: norm(shown).length, expectedChars: norm(expected).length, maxFrameGapMs: maxGap };
}`;
