// The panel's native look and its new inputs: codicon buttons keep their names, the picker shows the last model
// before the host answers and the selected model's window and vision/tools badges, `@` asks the host and picking
// a candidate attaches it, and the host's image reaches the message box as a chip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountApp } from './doubles';
import { windowText } from '../../../webview-ui/modelBadges';

test('History, New chat and Refresh are codicon buttons with their names as labels', () => {
  const m = mountApp();
  for (const [label, icon] of [['History', 'history'], ['New chat', 'add'], ['Refresh models', 'refresh']]) {
    const button = m.q(`button[aria-label="${label}"]`);
    assert.ok(button.querySelector(`.codicon.codicon-${icon}`), label);
  }
});

test('the picker shows the last model at once after a reload, then the badges of the selected model', () => {
  const m = mountApp({ uiState: { draft: '', hotContextOpen: false, scrollTop: null, model: 'qwen2.5vl:7b' } });
  const picker = m.q<HTMLSelectElement>('select.model-picker');
  assert.equal(picker.value, 'qwen2.5vl:7b');
  m.deliver({ type: 'models', models: ['qwen2.5vl:7b', 'qwen3:8b'], selected: 'qwen3:8b', selectedInfo: { window: 32768, vision: false, tools: true } });
  assert.equal(picker.value, 'qwen3:8b');
  const badges = m.q('.model-badges');
  assert.equal(badges.hidden, false);
  assert.equal(m.q('.model-window').textContent, '32K');
  assert.equal(m.qa('.model-vision').length, 0);
  assert.equal(m.qa('.model-tools.codicon-tools').length, 1);
  assert.equal(badges.title, '32,768-token window, calls tools');
  m.deliver({ type: 'models', models: ['qwen2.5vl:7b'], selected: 'qwen2.5vl:7b', selectedInfo: { window: 131072, vision: true } });
  assert.equal(m.q('.model-window').textContent, '128K');
  assert.equal(m.qa('.model-vision.codicon-eye').length, 1);
  assert.deepEqual((m.api.state as { model?: string }).model, 'qwen2.5vl:7b');
  assert.equal(windowText(4000), '4000');
});

test('typing @ asks the host; picking a candidate replaces the word and asks for the chip', () => {
  const m = mountApp();
  const input = m.q<HTMLTextAreaElement>('textarea');
  input.value = 'Explain @uti';
  input.setSelectionRange(12, 12);
  input.dispatchEvent(new m.dom.window.Event('input', { bubbles: true }));
  assert.deepEqual(m.api.ofType('mentionQuery').at(-1), { type: 'mentionQuery', query: 'uti' });
  // An answer for another query is stale and dropped; the current one opens the list.
  m.deliver({ type: 'mentionCandidates', query: 'ut', items: [{ kind: 'file', label: 'src/old.ts', ref: 'src/old.ts' }] });
  assert.equal(m.q('.mention-suggestions').hidden, true);
  m.deliver({
    type: 'mentionCandidates',
    query: 'uti',
    items: [
      { kind: 'file', label: 'src/util.ts', ref: 'src/util.ts' },
      { kind: 'problems', label: 'problems', detail: '1 error, 0 warnings', ref: 'problems' },
    ],
  });
  assert.equal(m.q('.mention-suggestions').hidden, false);
  assert.equal(m.qa('.mention-option').length, 2);
  input.dispatchEvent(new m.dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  assert.equal(input.value, 'Explain @src/util.ts ');
  assert.deepEqual(m.api.ofType('mention').at(-1), { type: 'mention', candidate: { kind: 'file', label: 'src/util.ts', ref: 'src/util.ts' } });
  assert.equal(m.api.ofType('send').length, 0, 'Enter picked, it did not send');
  assert.equal(m.q('.mention-suggestions').hidden, true);
});

test('a mention chip from the host shows @label and its × removes it', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: { items: [], busy: false, status: null, context: { used: 0, available: null }, nextId: 1, attachments: [{ id: 'a1', kind: 'mention', mention: 'problems', label: 'problems', text: 'src/a.ts:1:1 error: x' }] } } as never);
  const chip = m.q('.attachment-mention');
  assert.equal(chip.querySelector('.attachment-label')!.textContent, '@problems');
  chip.querySelector('button')!.dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(m.api.ofType('removeAttachment').at(-1), { type: 'removeAttachment', id: 'a1' });
});
