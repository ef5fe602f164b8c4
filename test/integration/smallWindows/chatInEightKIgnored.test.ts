// Small windows for real (d), once more with a compression model that ignores its tools (prose or empty
// replies), so every compression ends in the deterministic fallback. See chatSession.ts.
import { after, describe, test } from 'node:test';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { ASKED, CHAT_WINDOW, MAX_REQUESTS_PER_TURN, chatAcceptance } from './chatSession';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe(`a ${ASKED.length}-turn chat in a ${CHAT_WINDOW}-token window, compression model ignores its tools`, () => {
  const ollama = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
  test(`over ollama: every answer right, no request over the window, at most ${MAX_REQUESTS_PER_TURN} requests per turn`, (t) =>
    chatAcceptance(t, ollama, 'ignores', servers));
});
