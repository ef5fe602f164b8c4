// NodeProcessRunner with real shells and real child processes: exit codes, merged output, bounded capture,
// timeouts and aborts that kill the whole process tree, no stdin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import type { RunOptions } from '../../../src/core/ports';
import { TempWorkspace } from '../../helpers/tools/toolHarness';
import { isAlive, parsePids, waitUntilGone } from '../../helpers/tools/processes';

const posix = process.platform !== 'win32';
let ws: TempWorkspace;
const runner = new NodeProcessRunner({ killGraceMs: 500, drainMs: 300 });

before(async () => {
  ws = await TempWorkspace.create();
});
after(async () => {
  await ws.dispose();
});

function opts(extra: Partial<RunOptions> = {}): RunOptions {
  return { cwd: ws.root, timeoutMs: 10_000, signal: new AbortController().signal, maxOutputChars: 100_000, ...extra };
}

describe('NodeProcessRunner', { skip: !posix && 'POSIX shell tests' }, () => {
  it('returns exit codes and merges stdout with stderr', async () => {
    const okRun = await runner.run('echo out; echo err >&2', opts());
    assert.equal(okRun.exitCode, 0);
    assert.match(okRun.output, /out\n/);
    assert.match(okRun.output, /err\n/);
    assert.deepEqual([okRun.timedOut, okRun.cancelled], [false, false]);
    const failing = await runner.run('exit 7', opts());
    assert.equal(failing.exitCode, 7);
  });

  it('runs in the given cwd with no stdin', async () => {
    const r = await runner.run('pwd; cat; echo "stdin closed"', opts({ cwd: ws.root }));
    assert.equal(r.output, `${ws.root}\nstdin closed\n`);
  });

  it('keeps head and tail of large output within the cap', async () => {
    const r = await runner.run('i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done', opts({ maxOutputChars: 1000 }));
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /^line 0\nline 1\n/);
    assert.match(r.output, /line 19999\n$/);
    assert.match(r.output, /\[… \d+ characters of output omitted …\]/);
    assert.ok(r.output.length < 1100, `output length ${r.output.length}`);
  });

  it('kills the whole process tree on timeout', async () => {
    const pidFile = path.join(ws.root, 'timeout-pids.txt');
    const started = Date.now();
    const r = await runner.run(`sleep 30 & echo $! > ${pidFile}; echo $$ >> ${pidFile}; sh -c 'echo $$ >> ${pidFile}; sleep 31; echo never'`, opts({ timeoutMs: 700 }));
    assert.equal(r.timedOut, true);
    assert.equal(r.cancelled, false);
    assert.ok(Date.now() - started < 5000, 'returned promptly after the timeout');
    const pids = parsePids(await readFile(pidFile, 'utf8'));
    assert.equal(pids.length, 3, 'background sleep, shell and sub-shell recorded');
    assert.deepEqual(await waitUntilGone(pids), [], 'no process of the tree survives');
    assert.doesNotMatch(r.output, /never/);
  });

  it('escalates to SIGKILL when the tree ignores SIGTERM', async () => {
    const pidFile = path.join(ws.root, 'stubborn-pids.txt');
    const r = await runner.run(`trap '' TERM; echo $$ > ${pidFile}; sh -c "trap '' TERM; echo \\$\\$ >> ${pidFile}; sleep 30"`, opts({ timeoutMs: 400 }));
    assert.equal(r.timedOut, true);
    const pids = parsePids(await readFile(pidFile, 'utf8'));
    assert.equal(pids.length, 2);
    assert.deepEqual(await waitUntilGone(pids, 4000), []);
  });

  it('stops the tree when the signal aborts, and does not start at all when already aborted', async () => {
    const pidFile = path.join(ws.root, 'abort-pids.txt');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const started = Date.now();
    const r = await runner.run(`echo $$ > ${pidFile}; sleep 30 & echo $! >> ${pidFile}; wait`, opts({ signal: controller.signal }));
    assert.equal(r.cancelled, true);
    assert.equal(r.timedOut, false);
    assert.ok(Date.now() - started < 5000);
    assert.deepEqual(await waitUntilGone(parsePids(await readFile(pidFile, 'utf8'))), []);

    const early = new AbortController();
    early.abort();
    const marker = path.join(ws.root, 'should-not-exist.txt');
    const skipped = await runner.run(`touch ${marker}`, opts({ signal: early.signal }));
    assert.deepEqual(skipped, { exitCode: null, output: '', timedOut: false, cancelled: true });
    await assert.rejects(readFile(marker));
  });

  it('does not hang when a background child keeps the output pipe open', async () => {
    const pidFile = path.join(ws.root, 'bg-pids.txt');
    const started = Date.now();
    const r = await runner.run(`sleep 20 & echo $! > ${pidFile}; echo started`, opts());
    const pids = parsePids(await readFile(pidFile, 'utf8'));
    try {
      assert.equal(r.exitCode, 0);
      assert.ok(Date.now() - started < 3000, 'returned soon after the shell exited');
      assert.match(r.output, /^started\n/);
      assert.match(r.output, /background processes running/);
    } finally {
      for (const pid of pids.filter(isAlive)) process.kill(pid, 'SIGKILL');
    }
  });

  it('rejects when the shell cannot start', async () => {
    const broken = new NodeProcessRunner({ shell: path.join(ws.root, 'no-such-shell') });
    await assert.rejects(broken.run('echo hi', opts()), /ENOENT/);
  });
});
