// What a command line may get away with (issue 28), through the real CLI process, real bubblewrap and wire-faithful
// fake servers of both formats: a command sees only the allow-listed environment (never the model server's key or
// other secrets), a network exception for one prefix never reaches a second line, and a session rule for one
// command never covers that command with another one chained after it (a weak model's `npm test⏎rm -rf …`).
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, runCli, type CliRun } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { runInTerminal, shellQuote } from '../../helpers/conformance/terminal';
import type { ChatBody, FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { readRequest } from '../../helpers/weakModels/requestView';

const SECRETS = {
  LOCALHARNESS_API_KEY: 'lh-key-0f9a8b7c',
  OPENAI_API_KEY: 'sk-fake-1234567890',
  GITHUB_TOKEN: 'ghp_fakeTokenValue42',
  AWS_SECRET_ACCESS_KEY: 'aws-fake-secret-99',
};

function workspace(): string {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'lh-shell-')), 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, 'package.json'), '{"name":"x","scripts":{"test":"echo tests pass"}}\n');
  return ws;
}

/** Runs the commands one per request, whatever each returned, then finishes (a function of the request alone). */
function commandRunner(commands: readonly string[]) {
  return (request: ChatBody): ScriptedReply => {
    const seen = readRequest(request).results.length;
    if (seen < commands.length) return { toolCalls: [{ name: 'run_command', arguments: { command: commands[seen]! } }] };
    return { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] };
  };
}

function commandResults(run: CliRun): Array<{ ok: boolean; denied: boolean; content: string }> {
  return run.events.filter((e) => e.type === 'tool_result' && e.name === 'run_command').map((r) => ({ ok: r.ok === true, denied: r.denied === true, content: String(r.content) }));
}

const connect = (port: number) =>
  `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', function () { console.log('connected'), process.exit(0) }).on('error', function (e) { console.log(e.message), process.exit(1) })"`;

let listener: { port: number; connections: number; close(): Promise<void> };
before(async () => {
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    state.connections++;
    socket.on('error', () => undefined);
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  listener = {
    port: (server.address() as { port: number }).port,
    get connections() {
      return state.connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
after(async () => {
  await listener.close();
});

for (const wire of WIRE_FORMATS) {
  describe(`command lines and their environment through the CLI over ${wire.name}`, () => {
    let servers: FakeServerHandle[] = [];
    const start = async (script: (request: ChatBody) => ScriptedReply, name: string) => {
      const s = await wire.start(script, name);
      servers.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
      servers = [];
    });

    for (const sandbox of ['required', 'off'] as const) {
      test(`\`env\` under --approve all (sandbox ${sandbox}) shows PATH, HOME and the --command-env variable, no secret`, async () => {
        const ws = workspace();
        const server = await start(commandRunner(['env']), `env-${sandbox}`);
        const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'all', '--sandbox', sandbox, '--command-env', 'MY_BUILD_FLAG', '--json', 'show env'], {
          cwd: ws,
          env: { ...SECRETS, MY_BUILD_FLAG: 'visible-42', NOT_PASSED: 'hidden-17' },
        });
        assert.equal(run.code, 0, run.stderr);
        const [result] = commandResults(run);
        assert.ok(result?.ok, JSON.stringify(result));
        assert.match(result.content, /^PATH=/m);
        assert.match(result.content, /^HOME=/m);
        assert.match(result.content, /^MY_BUILD_FLAG=visible-42$/m);
        for (const value of [...Object.values(SECRETS), 'hidden-17']) assert.ok(!result.content.includes(value), `${value} reached the command`);
        // And what the model was sent back holds none either.
        const sent = server.requests.map((r) => JSON.stringify(r)).join('\n');
        assert.match(sent, /MY_BUILD_FLAG=visible-42/);
        for (const value of [...Object.values(SECRETS), 'hidden-17']) assert.ok(!sent.includes(value), `${value} was sent to the model`);
      });
    }

    test('--command-env cannot hand a command Local Harness\'s own key', async () => {
      const run = await runCli(['run', '--provider', wire.name, '--command-env', 'LOCALHARNESS_API_KEY', 'x'], { env: SECRETS });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /LOCALHARNESS_API_KEY belongs to Local Harness/);
    });

    test('--allow-network-for echo gives no network to a second line after echo; --allow-network-for node -e does', async () => {
      const ws = workspace();
      const before = listener.connections;
      const forms = [`echo a\n${connect(listener.port)}`, `echo a\r${connect(listener.port)}`, `echo a; ${connect(listener.port)}`, `echo a && ${connect(listener.port)}`, `echo "$(${connect(listener.port)})"`];
      const chained = await start(commandRunner(forms), 'net-chained');
      const run = await runCli(['run', ...wire.flags(chained), '--workspace', ws, '--approve', 'all', '--allow-network-for', 'echo', '--json', 'connect'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const results = commandResults(run);
      assert.equal(results.length, forms.length);
      for (const r of results) assert.doesNotMatch(r.content, /^connected$/m);
      assert.equal(listener.connections, before, 'the chained line reached the listener');
      // The same connection as one command under a prefix that names it: the exception is real.
      const plain = await start(commandRunner([connect(listener.port)]), 'net-plain');
      const allowed = await runCli(['run', ...wire.flags(plain), '--workspace', ws, '--approve', 'all', '--allow-network-for', 'node -e', '--json', 'connect'], { cwd: ws });
      assert.match(commandResults(allowed)[0]!.content, /^connected$/m);
      assert.equal(listener.connections, before + 1);
    });

    test('--approve read on a terminal with --allow-network-for echo: a chained line approved once still gets no network', async () => {
      const ws = workspace();
      const before = listener.connections;
      const server = await start(commandRunner([`echo a\n${connect(listener.port)}`]), 'net-read');
      const args = ['run', ...wire.flags(server), '--workspace', ws, '--approve', 'read', '--allow-network-for', 'echo', 'connect'];
      const questions: string[] = [];
      const { code, output } = await runInTerminal(`cd ${shellQuote([ws])} && ${shellQuote([process.execPath, CLI, ...args])}`, { ...process.env, NO_COLOR: '1' }, (screen) => {
        if (!/\[N\]o: $/.test(screen.trimEnd() + ' ')) return undefined;
        questions.push(screen);
        // Yes to the command (in the sandbox); no to running it again without the sandbox once it was blocked.
        return questions.length === 1 ? 'y\r' : 'n\r';
      });
      assert.equal(code, 0, output);
      assert.equal(questions.length, 2, output);
      assert.match(questions[1]!, /The sandbox blocked this command: the sandbox blocked a network connection/);
      // The dialog says the network is off and offers it once: the exception for echo did not reach node.
      assert.match(questions[0]!, /network off/);
      assert.match(questions[0]!, /\[w\]ith network, once/);
      assert.equal(listener.connections, before, 'the chained line reached the listener');
    });

    test('--allow-network-for with a chained prefix is a usage error', async () => {
      const run = await runCli(['run', '--provider', wire.name, '--allow-network-for', 'npm install && curl x', 'x']);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--allow-network-for "npm install && curl x": a prefix names one plain command .* it chains or groups commands|it chains commands/);
    });

    test('--approve read on a terminal: "session" for `npm test` does not cover `npm test⏎touch pwned`, which is asked and denied', async () => {
      const ws = workspace();
      const chained = ['npm test\ntouch pwned1', 'npm test; touch pwned2', 'npm test $(touch pwned3)', 'npm test\rtouch pwned4'];
      const commands = ['npm test', ...chained, 'npm test -- --grep "a b"'];
      const server = await start(commandRunner(commands), 'session-rule');
      const args = ['run', ...wire.flags(server), '--workspace', ws, '--approve', 'read', '--sandbox', 'off', 'run the tests'];
      const questions: string[] = [];
      const { code, output } = await runInTerminal(`cd ${shellQuote([ws])} && ${shellQuote([process.execPath, CLI, ...args])}`, { ...process.env, NO_COLOR: '1' }, (screen) => {
        if (!/\[N\]o: $/.test(screen.trimEnd() + ' ')) return undefined;
        questions.push(screen);
        // The first question: allow npm test for the session. Any later one: no.
        return questions.length === 1 ? 's\r' : 'n\r';
      });
      assert.equal(code, 0, output);
      for (const n of [1, 2, 3, 4]) assert.equal(existsSync(path.join(ws, `pwned${n}`)), false, `chained command ${n} ran`);
      // Asked: npm test (answered "session"), then each chained line; the plain npm test with arguments was not asked.
      assert.equal(questions.length, 1 + chained.length, output);
      assert.match(questions[0]!, /\[s\]ession/);
      for (const q of questions.slice(1)) {
        assert.doesNotMatch(q, /\[s\]ession/);
        assert.match(q, /Only once: no rule can cover this command/);
      }
      assert.match(output, /run_command \{"command":"npm test -- --grep \\"a b\\""\}\S*\s+\S*\s*✓/);
    });
  });
}
