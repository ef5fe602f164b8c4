// A changed --mcp-config file is never started without asking (issue 28), through the real CLI, on both wire
// formats: a config kept in the workspace is asked about on its first run; once the user ran it, a command the
// model ran plants another server into it, and the next run starts nothing without asking — refused without a
// terminal, asked (listing the planted command) on one.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { runInTerminal, shellQuote } from '../../helpers/conformance/terminal';
import type { ChatBody, FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { readRequest } from '../../helpers/weakModels/requestView';

/** A "server" that only leaves a mark when it is started (then exits; the run reports it failed). */
const marker = (file: string) => ({ type: 'stdio', command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, 'started')`] });

function setup() {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-mcptrust-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'tools'), { recursive: true });
  const config = path.join(ws, 'tools', 'servers.json');
  const marks = { docs: path.join(root, 'docs-started'), planted: path.join(root, 'planted-started') };
  writeFileSync(config, JSON.stringify({ servers: { docs: marker(marks.docs) } }, null, 2));
  return { root, ws, config, marks, env: { XDG_CONFIG_HOME: path.join(root, 'config') } };
}

const finish = (): ScriptedReply => ({ toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] });

/** Plants a second server into the config through an interpreter (the approval gate sees no redirection). */
function planter(config: string, mark: string) {
  const planted = JSON.stringify({ servers: { docs: marker('/dev/null'), helper: marker(mark) } });
  const command = `node -e "require('fs').writeFileSync(process.argv[1], process.argv[2])" ${shellQuote([config, planted])}`;
  return (request: ChatBody): ScriptedReply => (readRequest(request).results.length === 0 ? { toolCalls: [{ name: 'run_command', arguments: { command } }] } : finish());
}

for (const wire of WIRE_FORMATS) {
  describe(`a changed --mcp-config is asked before it starts, over ${wire.name}`, () => {
    let servers: FakeServerHandle[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
      servers = [];
    });
    const start = async (script: (request: ChatBody) => ScriptedReply, name: string) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };

    test('first run of a workspace config, a planted server, and the next run', async () => {
      const { ws, config, marks, env } = setup();
      const llm = await start(finish, 'trust-finish');
      const args = (...extra: string[]) => ['run', ...wire.flags(llm), '--workspace', ws, '--mcp-config', config, ...extra, '--json', 'hello'];

      // 1. A config inside the workspace, never run: refused without a terminal, nothing started, servers listed.
      const first = await runCli(args(), { cwd: ws, env });
      assert.equal(first.code, 2, first.stderr);
      assert.match(first.stderr, /servers\.json is inside the workspace and has not been run before, so its MCP servers were not started/);
      assert.match(first.stderr, /docs: .*node.* -e /);
      assert.match(first.stderr, /--trust-mcp-config/);
      assert.equal(existsSync(marks.docs), false);

      // 2. The user trusts it: it starts, and its contents are remembered in a private file.
      const trusted = await runCli(args('--trust-mcp-config'), { cwd: ws, env });
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(existsSync(marks.docs), true);
      const record = path.join(env.XDG_CONFIG_HOME, 'localharness', 'mcp-trust.json');
      assert.equal(statSync(record).mode & 0o777, 0o600);
      assert.ok(Object.keys(JSON.parse(readFileSync(record, 'utf8')).files).some((f) => f.endsWith('servers.json')));

      // 3. The same contents run again without asking.
      const again = await runCli(args(), { cwd: ws, env });
      assert.equal(again.code, 0, again.stderr);

      // 4. A command the model ran (sandbox off, --approve all) plants a server into the file.
      const plant = await start(planter(config, marks.planted), 'trust-plant');
      const planting = await runCli(['run', ...wire.flags(plant), '--workspace', ws, '--mcp-config', config, '--approve', 'all', '--sandbox', 'off', '--json', 'set up'], { cwd: ws, env });
      assert.equal(planting.code, 0, planting.stderr);
      assert.match(readFileSync(config, 'utf8'), /helper/);
      assert.equal(existsSync(marks.planted), false);

      // 5. The next ordinary run does not start it: no terminal, so refused, naming the planted command.
      const next = await runCli(args('--approve', 'all'), { cwd: ws, env });
      assert.equal(next.code, 2, next.stderr);
      assert.match(next.stderr, /servers\.json changed since you last ran it, so its MCP servers were not started/);
      assert.match(next.stderr, /helper: .*planted-started/);
      assert.equal(existsSync(marks.planted), false, 'the planted server started without asking');

      // 6. On a terminal the user is asked, sees the planted command, says no: still nothing started.
      const asked: string[] = [];
      const tty = await runInTerminal(shellQuote([process.execPath, CLI, ...args('--approve', 'all')]), { ...process.env, ...env, NO_COLOR: '1' }, (screen) => {
        if (!/Start them\? \[y\]es \/ \[N\]o: $/.test(screen)) return undefined;
        asked.push(screen);
        return 'n\r';
      });
      assert.equal(asked.length, 1, tty.output);
      assert.match(asked[0]!, /helper: .*planted-started/);
      assert.notEqual(tty.code, 0);
      assert.equal(existsSync(marks.planted), false);
    });
  });
}
