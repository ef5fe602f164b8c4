// `localharness mcp list|resource|prompt` through the built CLI against the real server-everything (stdio and
// Streamable HTTP): what each command prints, its exit codes, and that no server process outlives it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVERYTHING_BIN, everythingStdio, startEverythingHttp, writeHttpConfig, type EverythingHttp } from './everything';
import { LiveCli, assertAllGone, killLeftovers, nodeServer, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';

after(killLeftovers);

const DOCS = path.join(path.dirname(EVERYTHING_BIN), 'docs');
const STATIC_DOCS = ['architecture.md', 'extension.md', 'features.md', 'how-it-works.md', 'instructions.md', 'startup.md', 'structure.md'];
const PROMPTS = ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'];

interface Listed {
  config: string;
  servers: Array<{
    name: string;
    state: string;
    message?: string;
    serverInfo?: { name: string };
    tools: Array<{ name: string; registeredName: string; risk: string }>;
    resources: Array<{ uri: string; name: string; mimeType?: string }>;
    resourceTemplates: Array<{ uriTemplate: string; name: string; variables: string[] }>;
    prompts: Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }>;
  }>;
  configErrors: string[];
}

/** Runs the CLI to its end, then checks that every process it started is gone. */
async function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; spawned: number }> {
  const live = new LiveCli(args, cwd);
  const { code } = await live.finished(30_000);
  await assertAllGone(live.watcher.processes);
  return { code, stdout: live.stdout, stderr: live.stderr, spawned: live.watcher.matching(EVERYTHING_BIN).length };
}

function assertEverythingListed(server: Listed['servers'][number]): void {
  assert.equal(server.state, 'ready', server.message);
  assert.equal(server.serverInfo?.name, 'mcp-servers/everything');
  assert.deepEqual(server.prompts.map((p) => p.name), PROMPTS);
  const args = server.prompts.find((p) => p.name === 'args-prompt')!.arguments;
  assert.deepEqual(args.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
  assert.deepEqual(
    server.resources.map((r) => r.uri).sort(),
    STATIC_DOCS.map((d) => `demo://resource/static/document/${d}`),
  );
  assert.equal(server.resources.find((r) => r.name === 'features.md')?.mimeType, 'text/markdown');
  assert.deepEqual(
    server.resourceTemplates.map((t) => [t.name, t.uriTemplate, t.variables]),
    [
      ['Dynamic Text Resource', 'demo://resource/dynamic/text/{resourceId}', ['resourceId']],
      ['Dynamic Blob Resource', 'demo://resource/dynamic/blob/{resourceId}', ['resourceId']],
    ],
  );
  const tools = server.tools.map((t) => t.name);
  assert.ok(tools.includes('echo') && tools.includes('get-sum'), tools.join(', '));
  // The CLI announces roots, so the roots tool is offered; it lends no model or user here, so those tools are not.
  assert.ok(tools.includes('get-roots-list'), tools.join(', '));
  assert.ok(!tools.includes('trigger-sampling-request') && !tools.includes('trigger-elicitation-request'), tools.join(', '));
  assert.equal(server.tools.find((t) => t.name === 'echo')?.registeredName, 'everything__echo');
}

describe('mcp list', () => {
  test('--json: one document with each server, a failing one with its error; exit 0; nothing left running', async () => {
    const { root, ws } = tempWorkspace('list-json');
    const config = writeMcpConfig(root, {
      everything: nodeServer(EVERYTHING_BIN),
      broken: { command: path.join(root, 'no-such-server'), args: [] },
    });
    const run = await cli(['mcp', 'list', '--mcp-config', config, '--json'], ws);
    assert.equal(run.code, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as Listed;
    assert.equal(listed.config, config);
    assert.deepEqual(listed.servers.map((s) => s.name), ['everything', 'broken']);
    assertEverythingListed(listed.servers[0]!);
    const broken = listed.servers[1]!;
    assert.equal(broken.state, 'failed');
    assert.match(broken.message!, /MCP server "broken" failed to start: the command ".*no-such-server" was not found/);
    assert.deepEqual([broken.tools, broken.resources, broken.prompts], [[], [], []]);
    assert.equal(run.spawned, 1, 'the everything server was started once');
  });

  test('text: per server its tools, resources (uri and name), templates and prompts with required arguments marked', async () => {
    const { ws, config } = everythingStdio('list-text');
    const run = await cli(['mcp', 'list', '--mcp-config', config], ws);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^everything: ready \(mcp-servers\/everything \d/);
    assert.match(run.stdout, /\n {2}tools \(\d+\):\n {4}echo {2}\[read\]\n/);
    assert.match(run.stdout, /\n {2}resources \(7\):\n {4}demo:\/\/resource\/static\/document\/architecture\.md {2}architecture\.md \(text\/markdown\)\n/);
    assert.match(run.stdout, /\n {2}resource templates \(2\):\n {4}demo:\/\/resource\/dynamic\/text\/\{resourceId\} {2}Dynamic Text Resource\n/);
    assert.match(run.stdout, /\n {2}prompts \(4\):\n {4}simple-prompt — A prompt with no arguments\n {4}args-prompt \(city\*, state\) — /);
    assert.match(run.stdout, /\* required prompt argument\n$/);
  });

  test('exit 1 when every server fails, 2 when the file is unusable', async () => {
    const { root, ws } = tempWorkspace('list-fail');
    const config = writeMcpConfig(root, { gone: { command: path.join(root, 'missing-1'), args: [] }, lost: { command: path.join(root, 'missing-2'), args: [] } });
    const failed = await cli(['mcp', 'list', '--mcp-config', config], ws);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /^gone: failed — MCP server "gone" failed to start: .*\n\nlost: failed — /);

    const bad = path.join(root, 'bad.json');
    writeFileSync(bad, '{"servers": {"a": ');
    const unusable = await cli(['mcp', 'list', '--mcp-config', bad], ws);
    assert.equal(unusable.code, 2);
    assert.match(unusable.stderr, /^localharness: .*bad\.json is not valid JSON/);
    assert.equal(unusable.stdout, '');
  });
  test('Ctrl-C while the servers start: the command stops them and exits', async () => {
    const { ws, config } = everythingStdio('list-sigint');
    const live = new LiveCli(['mcp', 'list', '--mcp-config', config], ws);
    const deadline = Date.now() + 20_000;
    while (live.watcher.matching(EVERYTHING_BIN).length === 0) {
      assert.ok(Date.now() < deadline, 'the server was started');
      await new Promise((r) => setTimeout(r, 20));
    }
    const interruptedAt = Date.now();
    live.child.kill('SIGINT');
    const { code, closedAt } = await live.finished(15_000);
    assert.equal(code, 1, live.stderr);
    assert.ok(closedAt - interruptedAt < 5000, `exited ${closedAt - interruptedAt} ms after SIGINT`);
    assert.match(live.stderr, /localharness: interrupted/);
    assert.equal(live.stdout, '');
    await assertAllGone(live.watcher.processes);
  });
});

describe('mcp resource', () => {
  test('a text resource is printed as it is', async () => {
    const { ws, config } = everythingStdio('resource-text');
    const run = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/static/document/features.md'], ws);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(path.join(DOCS, 'features.md'), 'utf8').replace(/\n?$/, '\n'));
  });

  test('a blob is described in one line; with --out its decoded bytes go to the file', async () => {
    const { root, ws, config } = everythingStdio('resource-blob');
    const described = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/dynamic/blob/7'], ws);
    assert.equal(described.code, 0, described.stderr);
    // "Resource 7: This is a base64 blob created at <local time>": the time's length varies with the clock and locale.
    const line = /^\[binary text\/plain, (\d+) bytes: pass --out FILE to save it\]\n$/.exec(described.stdout);
    assert.ok(line, described.stdout);
    assert.ok(Number(line[1]) >= 50 && Number(line[1]) <= 70, described.stdout);

    const out = path.join(root, 'blob.bin');
    const saved = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/dynamic/blob/7', '--out', out], ws);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(saved.stdout, '');
    const bytes = readFileSync(out);
    assert.match(bytes.toString('utf8'), /^Resource 7: This is a base64 blob created at \d{1,2}:\d{2}:\d{2}/);
    assert.match(saved.stderr, new RegExp(`localharness: wrote ${bytes.length} bytes to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('a template, by name or uriTemplate, is filled from --arg; a missing variable is a usage error', async () => {
    const { ws, config } = everythingStdio('resource-template');
    const byName = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'Dynamic Text Resource', '--arg', 'resourceId=5'], ws);
    assert.equal(byName.code, 0, byName.stderr);
    assert.match(byName.stdout, /^Resource 5: This is a plaintext resource created at .+\n$/);

    const missing = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/dynamic/blob/{resourceId}'], ws);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /resource template "Dynamic Blob Resource" \(demo:\/\/resource\/dynamic\/blob\/\{resourceId\}\): missing resourceId\. Give --arg resourceId=…/);
  });

  test('an unknown URI or server is a clear error with exit 1', async () => {
    const { ws, config } = everythingStdio('resource-unknown');
    const uri = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/static/document/nope.md'], ws);
    assert.equal(uri.code, 1);
    assert.match(uri.stderr, /localharness: .*demo:\/\/resource\/static\/document\/nope\.md.*not found.*\(`mcp list` shows its resources and templates\)/);
    assert.doesNotMatch(uri.stderr, /MCP error -?\d+: MCP error/, 'the server\u2019s error code is said once');
    const server = await cli(['mcp', 'resource', '--mcp-config', config, 'nobody', 'demo://x'], ws);
    assert.equal(server.code, 1);
    assert.match(server.stderr, /there is no MCP server named "nobody" in .*mcp\.json \(servers: everything\)/);
    assert.equal(server.spawned, 0, 'no server is started for a name that is not in the file');
  });
});

describe('mcp prompt', () => {
  test('args-prompt with --arg prints its messages under role headers', async () => {
    const { ws, config } = everythingStdio('prompt-args');
    const run = await cli(['mcp', 'prompt', '--mcp-config', config, 'everything', 'args-prompt', '--arg', 'city=Paris', '--arg', 'state=Texas'], ws);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "[user]\nWhat's weather in Paris, Texas?\n");
  });

  test('a missing required argument is a usage error (exit 2) listing the arguments; nothing is asked of the server', async () => {
    const { ws, config } = everythingStdio('prompt-missing');
    const run = await cli(['mcp', 'prompt', '--mcp-config', config, 'everything', 'args-prompt', '--arg', 'state=Texas'], ws);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    // Every usage error is one line (issue 29): the arguments are listed on it.
    assert.match(run.stderr, /^localharness: prompt "args-prompt": missing required argument city\. Its arguments: --arg city=… +\(required\) Name of the city +--arg state=… +\(optional\)\n$/);
  });

  test('an embedded resource is shown inline; --json gives the messages as data', async () => {
    const { ws, config } = everythingStdio('prompt-resource');
    const run = await cli(['mcp', 'prompt', '--mcp-config', config, '--json', 'everything', 'resource-prompt', '--arg', 'resourceType=Text', '--arg', 'resourceId=3'], ws);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { server: string; prompt: string; messages: Array<{ role: string; text: string }> };
    assert.equal(result.prompt, 'resource-prompt');
    assert.deepEqual(result.messages.map((m) => m.role), ['user', 'user']);
    assert.match(result.messages[0]!.text, /includes the Text resource with id: 3/);
    assert.match(result.messages[1]!.text, /Resource 3: This is a plaintext resource created at/);
  });

  test('an unknown prompt names the ones there are', async () => {
    const { ws, config } = everythingStdio('prompt-unknown');
    const run = await cli(['mcp', 'prompt', '--mcp-config', config, 'everything', 'weather'], ws);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /MCP server "everything" has no prompt "weather" \(its prompts: simple-prompt, args-prompt, completable-prompt, resource-prompt\)/);
  });
});

describe('over Streamable HTTP', () => {
  let http: EverythingHttp;
  before(async () => {
    http = await startEverythingHttp();
  });
  after(async () => {
    await http?.close();
  });

  test('list, read a resource and get a prompt', async () => {
    const { root, ws } = tempWorkspace('http');
    const config = writeHttpConfig(root, { everything: { url: http.url } });
    const list = await cli(['mcp', 'list', '--mcp-config', config, '--json'], ws);
    assert.equal(list.code, 0, list.stderr);
    assertEverythingListed((JSON.parse(list.stdout) as Listed).servers[0]!);

    const resource = await cli(['mcp', 'resource', '--mcp-config', config, 'everything', 'demo://resource/static/document/startup.md'], ws);
    assert.equal(resource.code, 0, resource.stderr);
    assert.equal(resource.stdout, readFileSync(path.join(DOCS, 'startup.md'), 'utf8').replace(/\n?$/, '\n'));

    const prompt = await cli(['mcp', 'prompt', '--mcp-config', config, 'everything', 'args-prompt', '--arg', 'city=Lyon'], ws);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.equal(prompt.stdout, "[user]\nWhat's weather in Lyon?\n");
  });
});
