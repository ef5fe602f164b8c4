// The --json event stream names the stored session on turn_start and turn_end, so a script can continue it
// with --session without parsing `localharness sessions`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, messagesOf } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test('turn_start and turn_end carry the sessionId with --db; --session continues that very session', async () => {
  const wire = WIRE_FORMATS[0]!;
  const server = await wire.start([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'No database here.' }], 'session id');
  servers.push(server);
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-sid-'));
  const db = path.join(ws, 'sessions.db');

  const first = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--json', 'Say something.'], { cwd: ws });
  assert.equal(first.code, 0, first.stderr);
  const printed = /session (\S+)/.exec(first.stderr)?.[1];
  assert.ok(printed, first.stderr);
  const start = first.events.find((e) => e.type === 'turn_start');
  const end = first.events.find((e) => e.type === 'turn_end');
  assert.equal(start?.sessionId, printed);
  assert.equal(end?.sessionId, printed);

  const second = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--session', String(start!.sessionId), '--json', 'And again.'], { cwd: ws });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.events.find((e) => e.type === 'turn_start')?.sessionId, printed);
  assert.equal(messagesOf(server.requests[1]!).filter((m) => m.role === 'user').length, 2, 'the second run continued the first session');

  // Without a database there is no session to name.
  const plain = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--json', 'Once more.'], { cwd: ws, env: { LOCALHARNESS_DB: '' } });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal('sessionId' in plain.events.find((e) => e.type === 'turn_start')!, false);
});
