// A user message's images in the chat: the live turn's event and a reopened session's stored message both become
// items with labels and small thumbnails, never the full picture; a compressed-away image keeps its one-line note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ImagePart } from '../../../../src/core/images/imagePart';
import { withoutImages } from '../../../../src/core/images/imageText';
import type { ChatMessage } from '../../../../src/core/messages';
import { agentEventToChatEvents } from '../../../../src/editor/chat/agentEventMapping';
import { itemsFromHistory } from '../../../../src/editor/chat/historyItems';
import { initialChatState, reduceAll } from '../../../../src/shared/chatState';
import { ChatItemSchema, MAX_THUMBNAIL } from '../../../../src/shared/chatModel';
import { makePng } from '../../../helpers/images/png';

const THUMB = `data:image/png;base64,${makePng(16, 12).toString('base64')}`;
const small: ImagePart = { mimeType: 'image/png', data: makePng(40, 30).toString('base64'), name: 'shot.png', width: 40, height: 30 };
// Big enough that the full picture must not ride in the chat state.
const big: ImagePart = { mimeType: 'image/png', data: Buffer.concat([makePng(1024, 768), randomBytes(60_000)]).toString('base64'), name: 'big.png', width: 1024, height: 768 };

test('the live turn_start carries each image label with the thumbnail the panel made, and the item keeps them', () => {
  const events = agentEventToChatEvents({ type: 'turn_start', turnId: 't', message: 'What is this?', images: ['a.png (40×30)', 'b.png (1024×768)'], thumbnails: [THUMB, null] });
  assert.deepEqual(events, [
    { type: 'turn_start', text: 'What is this?\nAttached: a.png (40×30) · b.png (1024×768)', images: [{ name: 'a.png (40×30)', thumbnail: THUMB }, { name: 'b.png (1024×768)' }] },
  ]);
  const item = reduceAll(initialChatState(), events).items[0]!;
  assert.equal(ChatItemSchema.safeParse(item).success, true);
  assert.deepEqual(item.kind === 'user' && item.images, [{ name: 'a.png (40×30)', thumbnail: THUMB }, { name: 'b.png (1024×768)' }]);
});

test('a thumbnail that is no image data URL, or too long, is dropped and the label stays', () => {
  const long = `data:image/png;base64,${'A'.repeat(MAX_THUMBNAIL)}`;
  const [event] = agentEventToChatEvents({ type: 'turn_start', turnId: 't', message: 'x', images: ['a.png', 'b.png'], thumbnails: ['javascript:alert(1)', long] });
  assert.deepEqual(event, { type: 'turn_start', text: 'x\nAttached: a.png · b.png', images: [{ name: 'a.png' }, { name: 'b.png' }] });
  const [plain] = agentEventToChatEvents({ type: 'turn_start', turnId: 't', message: 'no images' });
  assert.deepEqual(plain, { type: 'turn_start', text: 'no images' });
});

test('a reopened session shows the stored thumbnail; a small image is its own thumbnail; a big one without one keeps only its label', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'Compare', images: [{ ...big, thumbnail: THUMB }, small, big] },
    { role: 'assistant', content: 'They differ.' },
  ];
  const { items } = itemsFromHistory(history);
  const user = items[0]!;
  assert.equal(user.kind, 'user');
  if (user.kind !== 'user') return;
  assert.equal(user.text, 'Compare\nAttached: big.png (1024×768) · shot.png (40×30) · big.png (1024×768)');
  assert.deepEqual(user.images, [
    { name: 'big.png (1024×768)', thumbnail: THUMB },
    { name: 'shot.png (40×30)', thumbnail: `data:image/png;base64,${small.data}` },
    { name: 'big.png (1024×768)' },
  ]);
  assert.ok(JSON.stringify(items).length < 20_000, 'the full picture never rides in the chat state');
  assert.equal(ChatItemSchema.safeParse(user).success, true);
});

test('a message whose image was compressed away shows its one-line note and no thumbnail', () => {
  const { items } = itemsFromHistory([withoutImages({ role: 'user', content: 'Look', images: [small] } as ChatMessage)]);
  const user = items[0]!;
  assert.equal(user.kind === 'user' && user.images, undefined);
  assert.equal(user.kind === 'user' && user.text, 'Look\n[image shot.png (image/png, 40×30) was shown earlier and is no longer in the context]');
});
