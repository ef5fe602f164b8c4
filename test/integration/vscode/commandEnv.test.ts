// The editor's child-process path for commands (ChatCommands with turnEngine's runner and sandbox, as the chat
// builds them when the terminal has no shell integration): a command sees the allow-list and the user's
// localharness.sandbox.envPassthrough names, sandboxed or not, and none of the extension host's secrets; a changed
// passthrough list applies to the next command.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatCommands } from '../../../src/editor/engine/chatCommands';
import { createEditorSandbox, createFallbackRunner, createSandboxLauncher, WorkspaceRoots } from '../../../src/editor/engine/turnEngine';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/core/sandbox/sandboxSettings';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';

const SECRETS = { LOCALHARNESS_API_KEY: 'lh-editor-secret', OPENAI_API_KEY: 'sk-editor-secret', GH_TOKEN: 'gh-editor-secret' };
const saved = Object.fromEntries(Object.keys({ ...SECRETS, MY_FLAG: '' }).map((k) => [k, process.env[k]]));
Object.assign(process.env, SECRETS, { MY_FLAG: 'flag-value-7' });
after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

test('the editor fallback runner passes the allow-list and envPassthrough, never the host secrets, with and without the sandbox', async () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-editor-env-'));
  const fs = new NodeFileSystem();
  const commands = new ChatCommands({ createRunner: (fallback) => fallback, extraPatterns: () => [], notice: () => undefined });
  const engine = { createSandboxLauncher, createFallbackRunner, createEditorSandbox };
  const run = async (passEnv: string[], sandboxed: boolean) => {
    const { runner, sandbox } = commands.forTurn(engine, DEFAULT_SANDBOX_SETTINGS, true, passEnv);
    const policy = sandboxed ? await sandbox.policy('env', new WorkspaceRoots([{ name: 'ws', path: ws }], fs), fs) : undefined;
    const result = await runner.run('env', { cwd: ws, timeoutMs: 10_000, signal: new AbortController().signal, maxOutputChars: 100_000, ...(policy && { sandbox: policy }) });
    assert.equal(result.exitCode, 0, result.output);
    for (const value of Object.values(SECRETS)) assert.ok(!result.output.includes(value), `${value} reached the command`);
    assert.match(result.output, /^PATH=/m);
    assert.match(result.output, /^HOME=/m);
    return result.output;
  };
  for (const sandboxed of [false, true]) {
    assert.doesNotMatch(await run([], sandboxed), /MY_FLAG/);
    assert.match(await run(['MY_FLAG'], sandboxed), /^MY_FLAG=flag-value-7$/m);
  }
});
