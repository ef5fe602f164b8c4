// "What the model knows" with retrieval: the panel lists what the index gave the latest request and why, and
// the host -> webview protocol carries it (and refuses a malformed list).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderHotContext } from '../../../webview-ui/hotContextPanel';
import { parseHostMessage, type HotContextView } from '../../../src/shared/protocol';

const BASE: HotContextView = { text: '', filesRead: [], filesModified: [], todos: [], activeFile: null, selection: null };
const RETRIEVED: NonNullable<HotContextView['retrieved']> = [
  { file: 'src/config.ts', lines: '10-42', score: 0.82, why: 'similar to the request (0.82)' },
  { file: 'src/loader.ts', lines: '7', score: 0.4, why: 'calls parseConfig' },
];

function render(view: HotContextView): HTMLElement {
  const dom = new JSDOM('<!DOCTYPE html><body><section class="hot-context"></section></body>');
  const panel = dom.window.document.querySelector<HTMLElement>('.hot-context')!;
  renderHotContext(panel, view, dom.window.document);
  return panel;
}

test('the panel lists retrieved chunks as file:lines — why, best first', () => {
  const panel = render({ ...BASE, filesRead: [{ path: 'a.ts', ranges: '1-20' }], retrieved: RETRIEVED });
  const section = panel.querySelector('.hot-context-retrieved');
  assert.ok(section, 'a "Retrieved from the index" section');
  assert.equal(section.querySelector('h3')?.textContent, 'Retrieved from the index');
  const items = [...section.querySelectorAll('li')].map((li) => li.textContent);
  assert.deepEqual(items, ['src/config.ts:10-42 — similar to the request (0.82)', 'src/loader.ts:7 — calls parseConfig']);
  assert.equal(section.querySelector('li')?.getAttribute('title'), 'score 0.82');
  // It sits with the other sections, after the files read.
  const titles = [...panel.querySelectorAll('h3')].map((h) => h.textContent);
  assert.deepEqual(titles, ['Files it read', 'Retrieved from the index']);
});

test('a retrieval alone is not "nothing yet"; without one there is no section', () => {
  const only = render({ ...BASE, retrieved: RETRIEVED });
  assert.equal(only.querySelector('.hot-context-empty'), null);
  assert.ok(only.querySelector('.hot-context-retrieved'));
  for (const view of [BASE, { ...BASE, retrieved: [] }]) {
    const panel = render(view);
    assert.equal(panel.querySelector('.hot-context-retrieved'), null);
    assert.ok(panel.querySelector('.hot-context-empty'));
  }
});

test('a why with markup is shown as text', () => {
  const panel = render({ ...BASE, retrieved: [{ file: 'x.ts', lines: '1-2', score: 1, why: '<img src=x onerror=alert(1)>' }] });
  assert.equal(panel.querySelector('img'), null);
  assert.match(panel.textContent ?? '', /<img src=x onerror=alert\(1\)>/);
});

test('protocol: hotContext with and without `retrieved` is accepted; a malformed list is refused', () => {
  for (const view of [BASE, { ...BASE, retrieved: RETRIEVED }, { ...BASE, retrieved: [] }]) {
    const message = { type: 'hotContext' as const, view };
    assert.deepEqual(parseHostMessage(JSON.parse(JSON.stringify(message))), { ok: true, message });
  }
  const bad: unknown[] = [
    [{ file: 'a.ts', lines: '1-2', score: '0.9', why: 'x' }],
    [{ file: 'a.ts', lines: '1-2', score: 0.9 }],
    [{ file: 'a.ts', lines: '1-2', score: Number.NaN, why: 'x' }],
    [{ file: 'a.ts', lines: 'x'.repeat(101), score: 0.9, why: 'x' }],
    [{ file: 'a.ts', lines: '1-2', score: 0.9, why: 'x'.repeat(2001) }],
    Array.from({ length: 201 }, () => ({ file: 'a.ts', lines: '1', score: 0, why: '' })),
    { file: 'a.ts' },
  ];
  for (const retrieved of bad) assert.equal(parseHostMessage({ type: 'hotContext', view: { ...BASE, retrieved } }).ok, false, JSON.stringify(retrieved).slice(0, 100));
});
