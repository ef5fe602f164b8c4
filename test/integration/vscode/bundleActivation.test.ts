// The built extension bundle loads and activates where `navigator` is a trap, as in the VS Code extension host
// (zod must never probe it), and activation stays cheap. Uses scripts/measure-activation.mjs's stand-in vscode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

test('dist/extension.js loads and activates without touching navigator', () => {
  const trap = path.join(ROOT, 'test/fixtures/node/navigatorTrap.cjs');
  const run = spawnSync(process.execPath, ['--require', trap, path.join(ROOT, 'scripts/measure-activation.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /registered: \d+ commands/);
  const activate = Number(/activate\(\): ([\d.]+) ms/.exec(run.stdout)?.[1]);
  assert.ok(activate >= 0, run.stdout);
  console.log(run.stdout.trim());
});
