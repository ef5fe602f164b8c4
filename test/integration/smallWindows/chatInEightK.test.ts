// Small windows for real (d): a 24-turn chat in an 8,192-token window over both wire formats, with a
// compression model that follows its instructions (clumsily). Every answer right, no request over the window,
// and all chat requests (agent + compression) at most two per turn on average. See chatSession.ts.
import { after, describe, test } from 'node:test';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { ASKED, CHAT_WINDOW, MAX_REQUESTS_PER_TURN, chatAcceptance } from './chatSession';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

// The wire formats run side by side: each is 24 CLI runs in a row.
describe(`a ${ASKED.length}-turn chat in a ${CHAT_WINDOW}-token window, compression model follows`, { concurrency: WIRE_FORMATS.length }, () => {
  for (const wire of WIRE_FORMATS) {
    test(`over ${wire.name}: every answer right, no request over the window, at most ${MAX_REQUESTS_PER_TURN} requests per turn`, (t) =>
      chatAcceptance(t, wire, 'follows', servers));
  }
});
