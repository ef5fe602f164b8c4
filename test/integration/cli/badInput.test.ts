// A careless command line costs nothing: a mistyped --db (a folder, a source file, the same through
// LOCALHARNESS_DB) is refused in one line with exit 2 and no byte on disk changes; every usage error is one
// line; numbers out of range never reach the server. Drives the built CLI (npm run build) as a real process.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli/runCli';

function snapshot(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => {
      const st = lstatSync(path.join(dir, name));
      return `${name} ${st.isDirectory() ? 'dir' : readFileSync(path.join(dir, name)).toString('base64')} ${st.mtimeMs}`;
    })
    .sort();
}

test('--db naming a folder or a source file, or LOCALHARNESS_DB naming a folder: one line, exit 2, nothing changes', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-baddb-'));
  const proj = path.join(root, 'proj');
  mkdirSync(path.join(proj, 'src'), { recursive: true });
  writeFileSync(path.join(proj, 'src', 'main.c'), 'J\xfcrgen\nint main(void) { return 0; }\n', 'latin1');
  const before = snapshot(root);
  const cases: Array<{ args: string[]; env?: NodeJS.ProcessEnv; says: RegExp }> = [
    { args: ['sessions', '--db', '.'], says: /proj is a folder, not a session database file/ },
    { args: ['sessions', '--db', proj], says: /is a folder/ },
    { args: ['sessions', '--db', 'src/main.c'], says: /main\.c is not a Local Harness session database/ },
    { args: ['sessions'], env: { LOCALHARNESS_DB: root }, says: /is a folder/ },
    { args: ['run', '--db', 'src', '--base-url', 'http://127.0.0.1:9', '--model', 'm', 'hello'], says: /src is a folder/ },
  ];
  for (const c of cases) {
    const r = await runCli(c.args, { cwd: proj, env: { LOCALHARNESS_DB: '', ...c.env } });
    assert.equal(r.code, 2, `${c.args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, c.says);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.deepEqual(snapshot(root), before, `${c.args.join(' ')} changed the disk`);
  }
});

test('usage errors are one line, and numbers out of range are refused before anything is sent', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['run', '--max-rounds', '-1', 'x'], /--max-rounds/],
    [['run', '--max-rounds=-1', 'x'], /--max-rounds must be a positive whole number, got "-1"/],
    [['run', '--num-ctx', '99999999999', 'x'], /--num-ctx must be at most 4194304, got "99999999999"/],
    [['run', '--first-byte-timeout', '1e9', 'x'], /--first-byte-timeout must be at most/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ];
  for (const [args, says] of cases) {
    const r = await runCli(args, { env: { LOCALHARNESS_DB: '' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, says);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /see: localharness --help/);
  }
});
