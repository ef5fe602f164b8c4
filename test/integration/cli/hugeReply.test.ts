// One huge reply must not end the session. A 200 KB repetition loop is stopped while it streams (the request is
// closed, so the server stops generating) and a 200 KB reply without repeats is cut at the reply limit; both
// end with a note; the stored reply stays small and the next turn of the same session works. Both wire formats,
// the built CLI (npm run build) as a real process with a real database.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import type { ChatBody } from '../../helpers/fakeLlm';

const LOOP = 'Let me check the configuration file again to be sure it is right.\n';

function prose(chars: number): string {
  let seed = 7;
  const words = ['the', 'parser', 'reads', 'each', 'line', 'of', 'config', 'and', 'stores', 'a', 'value', 'for', 'later', 'use', 'when', 'needed'];
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const w = words[seed % words.length]!;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

for (const wire of WIRE_FORMATS) {
  for (const kind of ['loop', 'long'] as const) {
    test(`a 200 KB ${kind === 'loop' ? 'repetition loop' : 'reply'} leaves a usable session (${wire.name})`, async (t) => {
      const ws = mkdtempSync(path.join(tmpdir(), 'lh-huge-'));
      t.after(() => rmSync(ws, { recursive: true, force: true }));
      const db = path.join(ws, 'sessions.db');
      const huge = kind === 'loop' ? `Here is what I found. ${LOOP.repeat(Math.ceil(200_000 / LOOP.length))}` : prose(200_000);
      let calls = 0;
      const server = await wire.start([
        { text: huge, chunkSize: 500, chunkDelayMs: 5 },
        // Whatever the harness asks after the first reply (a nudge), then the second turn.
        ...Array.from({ length: 6 }, () => (request: ChatBody) => {
          calls++;
          const last = messagesOf(request).filter((m) => m.role === 'user').at(-1)?.content ?? '';
          return { text: last.includes('and now?') ? 'Second turn works.' : 'Done.' };
        }),
      ], `huge ${kind}`);
      t.after(() => server.close());
      const flags = [...wire.flags(server), '--workspace', ws, '--db', db, '--num-ctx', '8192'];

      const first = await runCli(['run', ...flags, '--json', 'check the config'], { cwd: ws, env: { LOCALHARNESS_DB: '' } });
      assert.equal(first.code, 0, first.stderr + first.stdout.slice(-1500));
      const said = first.events.filter((e) => e.type === 'status' || e.type === 'notice').map((e) => String(e.message)).join('\n');
      if (kind === 'loop') {
        const shown = first.events.filter((e) => e.type === 'text').map((e) => String(e.text)).join('');
        assert.equal(shown.split(LOOP).length - 1, 1, 'the user saw one copy of the looping line');
        assert.match(said, new RegExp(`stopped: it kept repeating the same ${LOOP.length}-character passage`));
        await server.waitForClientAbort(1, 5000); // the request was closed: the server stopped generating
      } else {
        assert.match(said, /cut at 12,288 characters/);
      }
      const sessionId = String(first.events.find((e) => e.type === 'turn_start')?.sessionId);

      const second = await runCli(['run', ...flags, '--session', sessionId, 'and now?'], { cwd: ws, env: { LOCALHARNESS_DB: '' } });
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /Second turn works\./);
      const sent = messagesOf(server.requests.at(-1)!);
      void calls;
      const stored = sent.find((m) => m.role === 'assistant')!;
      assert.ok(stored.content.length < 12_288 + 400, `stored reply is ${stored.content.length} chars`);
      assert.match(stored.content, kind === 'loop' ? /\[The reply was stopped: it kept repeating/ : /\[The reply was cut at 12,288 characters/);
      // The part before the loop and one copy of it: the repeats were held back, never shown or stored.
      if (kind === 'loop') assert.ok(stored.content.startsWith(`Here is what I found. ${LOOP}\n\n[The reply was stopped`), stored.content.slice(0, 300));
      else assert.ok(huge.startsWith(stored.content.slice(0, 12_000)));
    });
  }
}
