// "Local means local": a whole CLI task opens no connection except to the model server — no telemetry, no update
// checks, no registry look-ups. Every TCP connect and DNS lookup in the child process is recorded by a preload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';

const SPY = path.resolve(__dirname, '../../fixtures/net/netSpy.cjs');

for (const wire of WIRE_FORMATS) {
  test(`a full ${wire.name} task connects only to the model server`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'lh-local-'));
    const ws = path.join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    const netLog = path.join(root, 'net.jsonl');
    const server = await wire.start(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'HELLO\n' } }] },
        { text: 'I created b.txt with the upper-cased content of a.txt.' },
      ],
      `local-only ${wire.name}`,
    );
    try {
      const dbPath = path.join(root, 'sessions.db');
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--db', dbPath, '--json', 'upper-case a.txt into b.txt'], {
        cwd: ws,
        env: { NODE_OPTIONS: `--require ${SPY}`, LH_NET_LOG: netLog },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'HELLO\n');
      assert.ok(existsSync(netLog), 'the spy recorded the model connections');
      const entries = readFileSync(netLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; host?: string; port?: number });
      const port = Number(new URL(server.origin).port);
      const tcp = entries.filter((e) => e.kind === 'tcp');
      assert.ok(tcp.length >= 1);
      assert.deepEqual(
        tcp.filter((e) => !(e.port === port && (e.host === '127.0.0.1' || e.host === 'localhost'))),
        [],
        'every TCP connection goes to the model server',
      );
      assert.deepEqual(entries.filter((e) => e.kind === 'dns' && e.host !== '127.0.0.1' && e.host !== 'localhost'), [], 'no DNS lookups of other hosts');
    } finally {
      await server.close();
    }
  });
}
