// The editor's turn wiring without the editor: the session HarnessController builds (editorSessionBuild with
// turnEngine's provider and tools), the approval dialog's answer mapping on the real gate, run whole turns
// against the fake Ollama server in a real temp workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, access, mkdir, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOllamaServer } from '../../helpers/fakeLlm';
import { EventBus } from '../../../src/core/agent/events';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ApprovalAsker } from '../../../src/core/approval/gate';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import {
  ApprovalGate,
  createChatProvider,
  createEditorSandbox,
  createFallbackRunner,
  createSandboxLauncher,
  createToolRegistry,
} from '../../../src/editor/engine/turnEngine';
import type { HarnessSettings } from '../../../src/editor/settings/harnessSettings';
import type { ToolAccess } from '../../../src/editor/engine/toolAccess';
import { ALLOW, ALLOW_NETWORK, ALLOW_SESSION, DENY, RUN_UNSANDBOXED, SHOW_DIFF, buildApprovalDialog, outcomeForAnswer } from '../../../src/editor/approval/dialog';
import { describeEventForLog } from '../../../src/editor/log/eventLog';
import { Logger } from '../../../src/editor/log/logger';
import { DEFAULT_SETTINGS } from '../../../src/editor/settings/harnessSettings';
import { RecordingLogSink } from '../../helpers/recordingLogSink';
import { editorSession } from '../../helpers/editorSession';

/** Clicks the scripted buttons in order; records the dialogs it saw. */
class ScriptedUser {
  readonly dialogs: string[] = [];
  constructor(private readonly answers: string[]) {}
  readonly ask: ApprovalAsker = async (request) => {
    const dialog = buildApprovalDialog(request);
    for (;;) {
      this.dialogs.push(`${dialog.message} [${dialog.buttons.join('|')}]`);
      const outcome = outcomeForAnswer(this.answers.shift());
      if (outcome.kind === 'decision') return outcome.decision;
    }
  };
}

async function editorTurn(options: { ollamaHost: string; workspace: string; user: ScriptedUser; access: ToolAccess; text: string; sandboxed?: boolean }) {
  const sink = new RecordingLogSink();
  const log = new Logger(sink);
  const bus = new EventBus();
  bus.on((e) => {
    const line = describeEventForLog(e);
    if (line) log.write(line.level, line.message);
  });
  const fs = new NodeFileSystem();
  const settings: HarnessSettings = { ...DEFAULT_SETTINGS, ollamaHost: options.ollamaHost, model: 'qwen3' };
  // The chat's runner and sandbox as ChatCommands builds them (the terminal runner's fallback, with its launcher).
  const launcher = options.sandboxed ? createSandboxLauncher() : undefined;
  const runner = launcher ? createFallbackRunner(launcher) : new NodeProcessRunner();
  const notices: string[] = [];
  const sandbox = launcher ? createEditorSandbox({ settings: () => settings.sandbox, launcher, extraPatterns: () => [], notice: (m) => notices.push(m) }) : undefined;
  const session = editorSession(
    {
      registry: createToolRegistry(),
      gate: new ApprovalGate({ policy: { autoApprove: settings.autoApprove, rules: [] }, ask: options.user.ask }),
      tracker: new ContextTracker(),
      fs,
      runner,
      ...(sandbox && { sandbox }),
      bus,
    },
    {
      provider: createChatProvider(settings, undefined, log),
      model: settings.model,
      settings,
      access: options.access,
      folders: [{ name: 'ws', path: options.workspace }],
      systemInfo: { os: 'test', shell: '/bin/sh', workspaceFolders: [options.workspace] },
    },
  );
  const outcome = await session.send(options.text, new AbortController().signal).finally(() => launcher?.dispose());
  const history = session.history;
  return { outcome, history, log: sink.lines, notices };
}

const systemOf = (request: Record<string, unknown>) => ((request.messages as Array<{ role: string; content: string }>)[0]!).content;
const toolNamesOf = (request: Record<string, unknown>) => ((request.tools as Array<{ function: { name: string } }>) ?? []).map((t) => t.function.name);

test('approve an edit after viewing the diff, deny a command: the file changes, the command never runs, the model hears the denial', async () => {
  const workspace = await mkdtemp(path.join(tmpdir(), 'lh-editor-turn-'));
  await writeFile(path.join(workspace, 'a.txt'), 'hello world\n');
  const server = await startFakeOllamaServer(
    [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { thinking: 'Replace the greeting.', toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'hello', new_text: 'goodbye' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran > ran.txt' } }] },
      { text: 'Changed the greeting; I did not run the command.' },
    ],
    { name: 'editor turn' },
  );
  try {
    const user = new ScriptedUser([SHOW_DIFF, ALLOW, DENY]);
    const { outcome, log } = await editorTurn({ ollamaHost: server.origin, workspace, user, access: 'all', text: 'Say goodbye instead of hello in a.txt' });

    assert.equal(outcome.reason, 'completed', `${outcome.error}\n${log.join('\n')}`);
    assert.equal(await readFile(path.join(workspace, 'a.txt'), 'utf8'), 'goodbye world\n');
    await assert.rejects(access(path.join(workspace, 'ran.txt')), 'the denied command must not have run');

    assert.equal(server.requests.length, 4);
    // read_file is auto-approved (risk read); the edit was shown twice (Show diff), the command once.
    assert.equal(user.dialogs.length, 3);
    assert.match(user.dialogs[0]!, /edit_file: .*a\.txt.*\[Allow\|Allow for this session\|Always allow in this workspace\|Deny\|Show diff\]/);
    assert.match(user.dialogs[2]!, /run_command: Run `echo ran > ran\.txt`/);

    // The hot context is told before every call — nothing yet, then the read file, then the modified file — at the
    // tail, with the newest message; the system prompt and everything sent before stay byte-identical.
    const messagesOf = (i: number) => server.requests[i]!.messages as Array<{ role: string; content: string }>;
    for (let i = 1; i < 4; i++) {
      assert.equal(systemOf(server.requests[i]!), systemOf(server.requests[0]!));
      assert.deepEqual(messagesOf(i).slice(0, messagesOf(i - 1).length), messagesOf(i - 1), `request ${i + 1} only appends`);
    }
    assert.doesNotMatch(JSON.stringify(messagesOf(0)), /# Working context/);
    assert.match(messagesOf(1).at(-1)!.content, /\n\n# Working context \(update\)\nRead: a\.txt \(lines 1\)$/);
    assert.match(messagesOf(2).at(-1)!.content, /\n\n# Working context \(update\)\nModified: a\.txt/);

    const last = server.requests[3]!.messages as Array<{ role: string; content: string; tool_name?: string }>;
    const denial = last.find((m) => m.role === 'tool' && m.tool_name === 'run_command');
    assert.match(denial?.content ?? '', /The user denied this run_command call \(denied by the user\)/);

    const text = log.join('\n');
    assert.match(text, /info request #1 → ollama http:\/\/127\.0\.0\.1:\d+ model=qwen3 messages=2 tools=11/);
    assert.match(text, /info reply #1 ← \d+ ms finish=\w+ .*toolCalls=1/);
    assert.match(text, /info approval granted for edit_file \(once\)/);
    assert.match(text, /warn approval denied for run_command: denied by the user/);
    assert.match(text, /warn tool run_command denied/);
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
});

test('Restricted Mode offers only read tools and an edit attempt changes nothing', async () => {
  const workspace = await mkdtemp(path.join(tmpdir(), 'lh-editor-turn-'));
  await writeFile(path.join(workspace, 'a.txt'), 'hello world\n');
  const server = await startFakeOllamaServer(
    [{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_text: 'hello', new_text: 'pwned' } }] }, { text: 'I cannot edit here.' }],
    { name: 'restricted turn' },
  );
  try {
    const user = new ScriptedUser([]);
    const { outcome } = await editorTurn({ ollamaHost: server.origin, workspace, user, access: 'read-only', text: 'edit it' });
    assert.equal(outcome.reason, 'completed');
    const offered = toolNamesOf(server.requests[0]!);
    assert.ok(offered.includes('read_file'));
    for (const name of ['write_file', 'edit_file', 'move_file', 'run_command']) assert.ok(!offered.includes(name), `${name} offered in Restricted Mode`);
    assert.match(systemOf(server.requests[0]!), /not trusted/);
    assert.equal(user.dialogs.length, 0, 'nothing to approve: the call is refused before the gate');
    assert.equal(await readFile(path.join(workspace, 'a.txt'), 'utf8'), 'hello world\n');
    const reply = (server.requests[1]!.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool');
    assert.match(reply?.content ?? '', /Unknown tool "edit_file"/);
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
});

test('sandboxed commands in the editor: a blocked write offers "Run once without the sandbox" (declined, then accepted), "Allow with network (once)" lets one run connect', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'lh-editor-sandbox-'));
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  let connections = 0;
  const listener = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined).end('hi\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as { port: number }).port;
  const connect = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', function () { console.log('connected'), process.exit(0) }).on('error', function (e) { console.log(e.code), process.exit(1) })"`;
  const server = await startFakeOllamaServer(
    [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo pwned > ../x.txt' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo allowed > ../y.txt' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: connect } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo ok > a.txt' } }] },
      { text: 'Done.' },
    ],
    { name: 'editor sandbox' },
  );
  try {
    // The escape is allowed for the session, blocked by the sandbox, and not run unconfined; the second one is
    // allowed to run once without the sandbox; the connection gets the network once; the write is allowed.
    const user = new ScriptedUser([ALLOW_SESSION, DENY, ALLOW, RUN_UNSANDBOXED, ALLOW_NETWORK, ALLOW]);
    const { outcome, log, notices } = await editorTurn({ ollamaHost: server.origin, workspace, user, access: 'all', text: 'go', sandboxed: true });
    assert.equal(outcome.reason, 'completed', `${outcome.error}\n${log.join('\n')}`);
    assert.deepEqual(notices, [], 'bubblewrap is installed: no notice');
    assert.deepEqual((await readdir(root)).sort(), ['ws', 'y.txt']);
    assert.equal(await readFile(path.join(root, 'y.txt'), 'utf8'), 'allowed\n');
    assert.equal(await readFile(path.join(workspace, 'a.txt'), 'utf8'), 'ok\n');
    assert.equal(connections, 1);

    assert.equal(user.dialogs.length, 6, user.dialogs.join('\n'));
    assert.match(user.dialogs[0]!, /run_command: Run `echo pwned > \.\.\/x\.txt`.*\[Deny\|Allow\|Allow with network \(once\)\|Allow for this session\|Always allow in this workspace\]/);
    assert.match(user.dialogs[1]!, /^Local Harness wants to run a command without the sandbox: Run `echo pwned > \.\.\/x\.txt` again without the sandbox \[Deny\|Run once without the sandbox\]$/);
    assert.match(user.dialogs[3]!, /without the sandbox: Run `echo allowed > \.\.\/y\.txt` again/);
    assert.match(user.dialogs[4]!, /Allow with network \(once\)/);

    const results = (server.requests.at(-1)!.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content);
    assert.match(results[0]!, /Read-only file system[\s\S]*\[Sandbox: [\s\S]*\[The user chose not to run it without the sandbox \(denied by the user\)\.\]$/);
    assert.match(results[1]!, /^\[Ran again without the sandbox, as the user allowed once\.\]\n\(no output\)\n\[Exit code 0\.\]$/);
    assert.match(results[2]!, /^connected\n\[Exit code 0\.\]$/);
    assert.match(results[3]!, /^\(no output\)\n\[Exit code 0\.\]$/);
  } finally {
    await server.close();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await rm(root, { recursive: true, force: true });
  }
});
