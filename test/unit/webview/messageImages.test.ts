// A sent message's images in the panel (jsdom): thumbnails under the message, live and from a snapshot; a click
// shows one larger; an image without a thumbnail has only its label; a bad thumbnail is never put into the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialChatState, reduceAll } from '../../../src/shared/chatState';
import type { ChatViewState } from '../../../src/shared/protocol';
import { mountApp } from './doubles';

const THUMB = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const TEXT = 'What is this?\nAttached: dot.png (1×1) · big.png (1024×768)';

test('a snapshot shows each image of a user message as a thumbnail; one without a thumbnail only in the label line', () => {
  const m = mountApp();
  const state = reduceAll(initialChatState(8192), [{ type: 'turn_start', text: TEXT, images: [{ name: 'dot.png (1×1)', thumbnail: THUMB }, { name: 'big.png (1024×768)' }] }]);
  m.deliver({ type: 'snapshot', seq: 1, state });
  m.timing.settle();
  const imgs = m.qa('.message-user img.message-image') as HTMLImageElement[];
  assert.equal(imgs.length, 1);
  assert.equal(imgs[0]!.getAttribute('src'), THUMB);
  assert.equal(imgs[0]!.alt, 'dot.png (1×1)');
  assert.equal(m.q('.message-user .message-body').textContent, TEXT);

  imgs[0]!.click();
  assert.ok(imgs[0]!.classList.contains('expanded'), 'a click shows it larger');
  imgs[0]!.click();
  assert.ok(!imgs[0]!.classList.contains('expanded'), 'and a second click makes it small again');
});

test('a live turn_start event brings its thumbnails too', () => {
  const m = mountApp();
  m.deliver({ type: 'snapshot', seq: 0, state: initialChatState(8192) });
  m.deliver({ type: 'events', base: 0, seq: 1, events: [{ type: 'turn_start', text: TEXT, images: [{ name: 'dot.png (1×1)', thumbnail: THUMB }] }] });
  m.timing.settle();
  assert.equal((m.q('.message-user img.message-image') as HTMLImageElement).getAttribute('src'), THUMB);
});

test('a user item whose thumbnail is no image data URL is refused, not rendered', () => {
  const m = mountApp();
  const state: ChatViewState = { ...initialChatState(8192), items: [{ kind: 'user', id: 'i1', text: 'x', images: [{ name: 'evil', thumbnail: 'javascript:alert(1)' }] }], nextId: 2 };
  m.deliver({ type: 'snapshot', seq: 0, state });
  m.timing.settle();
  assert.equal(m.qa('img').length, 0);
  assert.match(m.q('.conversation').textContent ?? '', /could not be shown/);
});
