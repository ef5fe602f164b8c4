// The message box's `/` suggestions (MCP prompts from the host) and "@" resource button, in the real panel code
// under jsdom: what shows when, the keyboard (arrows, Enter/Tab, Escape), clicks, and what is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState } from '../../../src/shared/chatState';
import { mountApp, type MountedApp } from './doubles';

const OFFERS = {
  type: 'mcpOffers',
  prompts: [
    { command: 'everything.simple-prompt', title: 'Simple Prompt', description: 'A prompt with no arguments' },
    { command: 'everything.args-prompt', title: 'Arguments Prompt', description: 'A prompt with two arguments' },
    { command: 'docs.search' },
  ],
  resources: 9,
};

function ready(): MountedApp {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: initialChatState() });
  m.timing.settle();
  m.deliver(OFFERS);
  return m;
}

function type(m: MountedApp, text: string, caret = text.length): void {
  const input = m.q<HTMLTextAreaElement>('textarea');
  input.focus();
  input.value = text;
  input.setSelectionRange(caret, caret);
  input.dispatchEvent(new m.dom.window.Event('input', { bubbles: true }));
}

function key(m: MountedApp, name: string, init: Record<string, unknown> = {}): boolean {
  const event = new m.dom.window.KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true, ...init });
  m.q('textarea').dispatchEvent(event);
  return event.defaultPrevented;
}

const options = (m: MountedApp) => m.qa('.slash-option').map((o) => o.textContent);
const selected = (m: MountedApp) => m.qa('.slash-option[aria-selected="true"]').map((o) => o.getAttribute('data-command'));
const list = (m: MountedApp) => m.q('.slash-suggestions');

test('a leading / lists the prompts with their titles and descriptions; typing narrows; other text shows nothing', () => {
  const m = ready();
  assert.equal(list(m).hidden, true);
  type(m, '/');
  assert.equal(list(m).hidden, false);
  assert.equal(list(m).getAttribute('role'), 'listbox');
  assert.deepEqual(options(m), [
    '/everything.simple-promptSimple Prompt \u2014 A prompt with no arguments',
    '/everything.args-promptArguments Prompt \u2014 A prompt with two arguments',
    '/docs.search',
  ]);
  assert.deepEqual(selected(m), ['everything.simple-prompt']);
  assert.equal(m.q('textarea').getAttribute('aria-activedescendant'), 'slash-suggestions-0');
  type(m, '/args');
  assert.deepEqual(selected(m), ['everything.args-prompt']);
  assert.equal(options(m).length, 1);
  for (const text of ['/zzz', 'hello /', '/everything.args-prompt and more']) {
    type(m, text);
    assert.equal(list(m).hidden, true, text);
  }
  assert.equal(m.q('textarea').hasAttribute('aria-activedescendant'), false);
});

test('arrows move the choice, Enter picks it into the box without sending; Enter again sends', () => {
  const m = ready();
  type(m, '/e');
  assert.equal(key(m, 'ArrowDown'), true);
  assert.deepEqual(selected(m), ['everything.args-prompt']);
  key(m, 'ArrowUp');
  key(m, 'ArrowUp');
  assert.deepEqual(selected(m), ['docs.search'], 'wraps around');
  key(m, 'ArrowDown');
  key(m, 'ArrowDown');
  assert.equal(key(m, 'Enter'), true);
  const input = m.q<HTMLTextAreaElement>('textarea');
  assert.equal(input.value, '/everything.args-prompt ');
  assert.equal(input.selectionStart, input.value.length);
  assert.equal(list(m).hidden, true);
  assert.equal(m.api.ofType('send').length, 0, 'picking does not send');
  type(m, '/everything.args-prompt in Celsius');
  key(m, 'Enter');
  assert.deepEqual(m.api.ofType('send'), [{ type: 'send', text: '/everything.args-prompt in Celsius' }]);
});

test('Tab picks too; with the whole command typed, Enter sends it at once', () => {
  const m = ready();
  type(m, '/docs');
  assert.equal(key(m, 'Tab'), true);
  assert.equal(m.q<HTMLTextAreaElement>('textarea').value, '/docs.search ');
  type(m, '/everything.simple-prompt');
  assert.equal(list(m).hidden, false);
  key(m, 'Enter');
  assert.deepEqual(m.api.ofType('send'), [{ type: 'send', text: '/everything.simple-prompt' }]);
});

test('Escape closes the list (and does not stop anything); it stays closed until the text changes', () => {
  const m = ready();
  type(m, '/s');
  assert.equal(key(m, 'Escape'), true);
  assert.equal(list(m).hidden, true);
  assert.equal(m.api.ofType('stop').length, 0);
  m.q('textarea').dispatchEvent(new m.dom.window.MouseEvent('click', { bubbles: true }));
  assert.equal(list(m).hidden, true, 'still dismissed for the same text');
  type(m, '/si');
  assert.equal(list(m).hidden, false);
  assert.equal(key(m, 'Escape'), true);
  assert.equal(key(m, 'Escape'), false, 'a closed list leaves Escape to the box');
});

test('a click on an option picks it; the list follows the host\u2019s updates', () => {
  const m = ready();
  type(m, '/');
  const option = m.qa('.slash-option')[2]!;
  option.dispatchEvent(new m.dom.window.MouseEvent('mousedown', { bubbles: true, cancelable: true }));
  assert.equal(m.q<HTMLTextAreaElement>('textarea').value, '/docs.search ');
  type(m, '/');
  m.deliver({ type: 'mcpOffers', prompts: [{ command: 'other.prompt' }], resources: 0 });
  assert.deepEqual(options(m), ['/other.prompt']);
  m.deliver({ type: 'mcpOffers', prompts: [], resources: 0 });
  assert.equal(list(m).hidden, true, 'no prompts: no list');
});

test('the "@" button shows while servers offer resources and asks the host to attach one', () => {
  const m = ready();
  const button = m.doc.querySelector<HTMLButtonElement>('button[aria-label="Attach MCP resource"]')!;
  assert.ok(button, 'the button exists');
  assert.equal(button.hidden, false);
  assert.equal(button.closest('.composer-actions') !== null, true, 'next to Send');
  button.click();
  assert.deepEqual(m.api.ofType('runCommand').at(-1), { type: 'runCommand', command: 'attachMcpResource' });
  m.deliver({ ...OFFERS, resources: 0 });
  assert.equal(button.hidden, true);
});

test('a cancelled prompt comes back through prefill and is no longer waiting to appear', () => {
  const m = ready();
  type(m, '/everything.args-prompt');
  key(m, 'Enter');
  assert.equal(m.q<HTMLTextAreaElement>('textarea').value, '', 'sent: the box is cleared');
  m.deliver({ type: 'prefill', text: '/everything.args-prompt' });
  assert.equal(m.q<HTMLTextAreaElement>('textarea').value, '/everything.args-prompt');
  // The user clears the box: a later error must not paste the old command back into it.
  type(m, '');
  m.deliver({ type: 'events', base: 0, seq: 1, events: [{ type: 'error', text: 'boom', actions: [] }] });
  m.timing.settle();
  assert.equal(m.q<HTMLTextAreaElement>('textarea').value, '');
});
