// Images stored with a session in a real sql.js file: written with the message, back after a reopen, a bad entry
// refused with a clear error.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { toChatMessage as recordedMessage } from '../../../src/persistence/sessionRecorder';
import { SessionStore } from '../../../src/persistence/sessionStore';
import { ManualClock, counterIds, tempDir } from './helpers';

async function withStore<T>(file: string, fn: (store: SessionStore) => Promise<T>): Promise<T> {
  const store = await SessionStore.open(file, { clock: new ManualClock(), newId: counterIds(), foldIdleMs: 0 });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

test('images a message showed the model are stored with it and come back after a reopen; a bad entry is refused', async (t) => {
  const file = path.join(tempDir(t), 'images.db');
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
  const id = await withStore(file, async (store) => {
    const session = await store.createSession({ title: 'look', model: 'qwen2.5vl:7b', provider: 'ollama' });
    await store.appendMessage(session.id, { role: 'user', content: 'What is this?', images: [{ mimeType: 'image/png', data: png, name: 'dot.png', width: 1, height: 1 }] });
    await store.appendMessage(session.id, { role: 'assistant', content: 'A dot.' });
    return session.id;
  });
  await withStore(file, async (store) => {
    const messages = (await store.loadMessages(id)).map(recordedMessage);
    assert.deepEqual(messages[0], { role: 'user', content: 'What is this?', images: [{ mimeType: 'image/png', data: png, name: 'dot.png', width: 1, height: 1 }] });
    assert.equal(messages[1]!.images, undefined);
  });
  await assert.rejects(
    withStore(file, (store) => store.appendMessage(id, { role: 'user', content: 'x', images: [{ name: 'bad' } as never] })),
    /"images" must be a list of \{mimeType, data, name\}/,
  );
});

test("an image's chat thumbnail is stored with it and comes back; a stored thumbnail that is no image data URL is dropped", async (t) => {
  const file = path.join(tempDir(t), 'thumbs.db');
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
  const thumbnail = `data:image/png;base64,${png}`;
  const id = await withStore(file, async (store) => {
    const session = await store.createSession({ title: 'look', model: 'qwen2.5vl:7b', provider: 'ollama' });
    await store.appendMessage(session.id, {
      role: 'user',
      content: 'What is this?',
      images: [
        { mimeType: 'image/png', data: png, name: 'dot.png', thumbnail },
        { mimeType: 'image/png', data: png, name: 'odd.png', thumbnail: 'javascript:alert(1)' },
      ],
    });
    return session.id;
  });
  await withStore(file, async (store) => {
    const [message] = (await store.loadMessages(id)).map(recordedMessage);
    assert.deepEqual(message!.images, [
      { mimeType: 'image/png', data: png, name: 'dot.png', thumbnail },
      { mimeType: 'image/png', data: png, name: 'odd.png' },
    ]);
  });
});
