// run_command end to end: real shell through NodeProcessRunner, the executor's approval step and the turn's signal.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';
import { parsePids, waitUntilGone } from '../../helpers/tools/processes';

const posix = process.platform !== 'win32';
let ws: TempWorkspace;
let h: ToolHarness;

before(async () => {
  ws = await TempWorkspace.create();
  await ws.write('sub/marker.txt', 'here\n');
  h = new ToolHarness(ws, { runCommand: { maxOutputChars: 2000 } });
});
after(async () => {
  await ws.dispose();
});

describe('run_command', { skip: !posix && 'POSIX shell tests' }, () => {
  it('describes the exact command for approval', async () => {
    const d = await h.describe('run_command', { command: 'npm test -- --grep "x"', cwd: 'sub', timeout_ms: 9_999_999 });
    assert.equal(d.title, 'Run `npm test -- --grep "x"` in ./sub');
    assert.equal(d.command, 'npm test -- --grep "x"');
    assert.match(d.detail, /Directory: \.\/sub\nTimeout: 600 s/);
    const root = await h.describe('run_command', { command: 'ls' });
    assert.equal(root.title, 'Run `ls` in ./');
    assert.match(root.detail, /Timeout: 120 s/);
  });

  it('returns output and exit code 0 as success', async () => {
    const r = await h.call('run_command', { command: 'cat marker.txt', cwd: 'sub' });
    assert.equal(r.ok, true);
    assert.equal(r.content, 'here\n[Exit code 0.]');
  });

  it('returns a non-zero exit code as a failure with the output', async () => {
    const r = await h.call('run_command', { command: 'echo "compile error" >&2; exit 2' });
    assert.equal(r.ok, false);
    assert.equal(r.content, 'compile error\n[Exit code 2.]');
    const quiet = await h.call('run_command', { command: 'true' });
    assert.equal(quiet.content, '(no output)\n[Exit code 0.]');
  });

  it('caps long output, keeping head and tail', async () => {
    const r = await h.call('run_command', { command: 'i=0; while [ $i -lt 5000 ]; do echo "row $i"; i=$((i+1)); done' });
    assert.equal(r.ok, true);
    assert.match(r.content, /^row 0\n/);
    assert.match(r.content, /row 4999\n\[Exit code 0\.\]$/);
    assert.match(r.content, /characters of output omitted/);
    assert.ok(r.content.length < 2300, `length ${r.content.length}`);
  });

  it('strips colour codes and progress redraws', async () => {
    const r = await h.call('run_command', { command: "printf '\\033[31mred\\033[0m\\n10%%\\r50%%\\r100%%\\n'" });
    assert.equal(r.content, 'red\n100%\n[Exit code 0.]');
  });

  it('times out, kills the tree and says how to fix it', async () => {
    const r = await h.call('run_command', { command: 'echo $$ > t.pid; sleep 30 & echo $! >> t.pid; wait', timeout_ms: 600 });
    assert.equal(r.ok, false);
    assert.match(r.content, /\[Timed out after 0\.6 s and was killed\. If it needs longer, pass a larger timeout_ms/);
    assert.deepEqual(await waitUntilGone(parsePids(await readFile(ws.abs('t.pid'), 'utf8'))), []);
  });

  it('is cancelled through the turn signal', async () => {
    const controller = new AbortController();
    // Abort once the shell is really running (a fixed delay races the shell's start on a loaded machine).
    const started = (async () => {
      for (let i = 0; i < 400; i++) {
        if (await readFile(ws.abs('c.pid'), 'utf8').then((t) => t.trim() !== '', () => false)) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      controller.abort();
    })();
    const r = await h.call('run_command', { command: 'echo $$ > c.pid; sleep 30' }, controller.signal);
    await started;
    assert.equal(r.ok, false);
    assert.match(r.content, /Cancelled/);
    assert.deepEqual(await waitUntilGone(parsePids(await readFile(ws.abs('c.pid'), 'utf8'))), []);
  });

  it('refuses a cwd that is missing, a file, or empty commands', async () => {
    const missing = await h.call('run_command', { command: 'ls', cwd: 'nope' });
    assert.equal(missing.ok, false);
    assert.match(missing.content, /cwd "nope" does not exist/);
    const file = await h.call('run_command', { command: 'ls', cwd: 'sub/marker.txt' });
    assert.match(file.content, /is not a directory/);
    const empty = await h.call('run_command', { command: '   ' });
    assert.match(empty.content, /command is empty/);
  });
});
