// One Ctrl-C ends the CLI while search_files runs a catastrophically backtracking pattern (the regex runs in a
// worker thread, so the signal handler runs and terminates it): well before the search's own 3 s deadline.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { CLI } from '../../helpers/cli/runCli';
import type { FakeServerHandle } from '../../helpers/fakeLlm';

for (const wire of WIRE_FORMATS) {
  describe(`Ctrl-C during a catastrophic search over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(() => Promise.all(servers.map((s) => s.close())));

    test('one SIGINT ends the run in well under the 3 s deadline, as cancelled', async () => {
      const ws = mkdtempSync(path.join(tmpdir(), 'lh-regex-sigint-'));
      writeFileSync(path.join(ws, 'evil.txt'), `${'a'.repeat(40)}!\n`.repeat(50));
      const server = await wire.start([{ toolCalls: [{ name: 'search_files', arguments: { pattern: '(a+)+$', path: 'evil.txt' } }] }, { text: 'unused' }], 'regex-sigint');
      servers.push(server);
      const child = spawn(process.execPath, [CLI, 'run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--json', 'find a-runs'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      for (let i = 0; i < 800 && !stdout.includes('"type":"tool_call"'); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(stdout.includes('"type":"tool_call"'), `the search should have started:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 200)); // the worker is matching by now
      const signalled = Date.now();
      child.kill('SIGINT');
      const code = await closed;
      const took = Date.now() - signalled;
      assert.ok(took < 2000, `ended ${took} ms after Ctrl-C`);
      assert.equal(code, 1);
      const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
      assert.equal(last.type, 'turn_end');
      assert.equal(last.reason, 'cancelled');
      assert.doesNotMatch(stdout, /too slow/, 'ended by the signal, not by the deadline');
    });
  });
}
