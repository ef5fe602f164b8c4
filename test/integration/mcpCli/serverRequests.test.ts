// What server-everything asks of the client during `localharness run` (no terminal: stdin is not a TTY):
// roots (the workspace), elicitation (declined at once, said on stderr, the turn goes on) and sampling
// (refused unless --allow-sampling; then answered by the run's own model through the same provider).
// The fake model decides from each request alone, as a weak real model would.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { WIRE_FORMATS, messagesOf, toolResults } from '../../helpers/cli/wire';
import type { ChatBody, FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { everythingStdio } from './everything';
import { LiveCli, assertAllGone, killLeftovers, offeredTools } from '../../helpers/mcp/mcpCliHelpers';

const servers: FakeServerHandle[] = [];
after(async () => {
  killLeftovers();
  await Promise.all(servers.map((s) => s.close()));
});

const SAMPLING_SYSTEM = 'You are a helpful test server.';
const SAMPLED = 'Hello from the local model.';

/**
 * A model that calls `tool` when it is offered, finishes with what the tool said once a tool result is in, and
 * answers a sampling request (recognised by the server's system prompt) with SAMPLED.
 */
function modelCalling(tool: string, args: Record<string, unknown>) {
  return (request: ChatBody): ScriptedReply => {
    const messages = messagesOf(request);
    if (messages[0]?.role === 'system' && messages[0].content === SAMPLING_SYSTEM) return { text: SAMPLED };
    const last = messages.at(-1);
    if (last?.role === 'tool') return { toolCalls: [{ name: 'task_completion', arguments: { result: `The tool said: ${last.content.slice(0, 200)}` } }] };
    if (offeredTools(request).some((t) => t.name === tool)) return { toolCalls: [{ name: tool, arguments: args }] };
    return { text: `I do not have the ${tool} tool.` };
  };
}

const runArgs = (ws: string, config: string) => ['--workspace', ws, '--mcp-config', config, '--approve', 'all', '--num-ctx', '32768', '--max-tools', '100', '--json'];

async function finish(cli: LiveCli) {
  const { code } = await cli.finished(60_000);
  await assertAllGone(cli.watcher.processes);
  return code;
}

test('roots: the server is told the workspace folder', async () => {
  const wire = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
  const { ws, config } = everythingStdio('roots');
  const server = await wire.start(modelCalling('everything__get-roots-list', {}), 'roots');
  servers.push(server);
  const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Which roots does the everything server know?'], ws);
  assert.equal(await finish(cli), 0, cli.stderr);
  const result = toolResults(server.requests.at(-1)!).at(-1)!;
  assert.match(result, /Current MCP Roots \(1 total\)/);
  assert.ok(result.includes(`URI: ${pathToFileURL(ws).href}`), result);
  assert.ok(result.includes('1. ws\n'), result);
});

test('elicitation without a terminal: declined at once, said on stderr, and the turn still finishes', async () => {
  const wire = WIRE_FORMATS.find((w) => w.name === 'openai')!;
  const { ws, config } = everythingStdio('elicit');
  const server = await wire.start(modelCalling('everything__trigger-elicitation-request', {}), 'elicit');
  servers.push(server);
  const startedAt = Date.now();
  const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Ask me for my details with the elicitation tool.'], ws);
  assert.equal(await finish(cli), 0, cli.stderr);
  assert.ok(Date.now() - startedAt < 30_000, 'nobody waited for an answer');

  assert.match(cli.stderr, /localharness: declined MCP server "everything"'s request for input \("Please provide inputs for the following fields:"\): there is no terminal to ask on/);
  const result = cli.events.find((e) => e.type === 'tool_result' && e.name === 'everything__trigger-elicitation-request')!;
  assert.equal(result.ok, true, String(result.content));
  assert.match(String(result.content), /User declined to provide the requested information/);
  assert.match(String(result.content), /"action": "decline"/);
  assert.equal(cli.events.at(-1)?.type, 'turn_end');
  assert.equal(cli.events.at(-1)?.reason, 'task_completion');
  assert.equal(server.requests.length, 2, 'the tool call, then the answer: no sampling or retries in between');
});

describe('sampling', () => {
  for (const wire of WIRE_FORMATS) {
    test(`with --allow-sampling over ${wire.name}: the request reaches the run's model and its text is the tool result`, async () => {
      const { ws, config } = everythingStdio(`sampling-${wire.name}`);
      const server = await wire.start(modelCalling('everything__trigger-sampling-request', { prompt: 'Say hello to the tests', maxTokens: 64 }), `sampling-${wire.name}`);
      servers.push(server);
      const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), '--allow-sampling', 'Use the sampling tool to say hello.'], ws);
      assert.equal(await finish(cli), 0, cli.stderr);

      // The requests: the turn's tool call, the server's sampling request, the turn's answer.
      assert.equal(server.requests.length, 3, JSON.stringify(server.requests.map((r) => messagesOf(r).map((m) => m.role))));
      const sampling = server.requests[1]!;
      assert.deepEqual(
        messagesOf(sampling).map((m) => [m.role, m.content]),
        [
          ['system', SAMPLING_SYSTEM],
          ['user', 'Resource trigger-sampling-request context: Say hello to the tests'],
        ],
      );
      assert.equal(sampling.model, 'test-model', 'the run\'s model answers, whatever the server would prefer');
      assert.deepEqual(offeredTools(sampling), [], 'a sampling request offers no tools');
      if (wire.name === 'openai') {
        assert.equal(sampling.max_tokens, 64);
        assert.equal(sampling.temperature, 0.7);
      } else {
        const options = sampling.options as { num_predict?: number; temperature?: number };
        assert.equal(options.num_predict, 64);
        assert.equal(options.temperature, 0.7);
      }

      const result = cli.events.find((e) => e.type === 'tool_result' && e.name === 'everything__trigger-sampling-request')!;
      assert.equal(result.ok, true, String(result.content));
      assert.match(String(result.content), /LLM sampling result:/);
      assert.ok(String(result.content).includes(`"text": "${SAMPLED}"`), String(result.content));
      assert.match(String(result.content), /"model": "test-model"/);
      assert.match(cli.stderr, /localharness: MCP server "everything" has test-model answer a prompt \(up to 64 tokens\): allowed by --allow-sampling/);
      assert.match(toolResults(server.requests[2]!).at(-1)!, new RegExp(SAMPLED.replace(/\./g, '\\.')));
    });
  }

  test('without --allow-sampling and without a terminal: refused, said on stderr, the model is not asked', async () => {
    const wire = WIRE_FORMATS.find((w) => w.name === 'ollama')!;
    const { ws, config } = everythingStdio('sampling-refused');
    const server = await wire.start(modelCalling('everything__trigger-sampling-request', { prompt: 'Say hello', maxTokens: 20 }), 'sampling-refused');
    servers.push(server);
    const cli = new LiveCli(['run', ...wire.flags(server), ...runArgs(ws, config), 'Use the sampling tool.'], ws);
    assert.equal(await finish(cli), 0, cli.stderr);
    assert.equal(server.requests.length, 2, 'no sampling request reached the model');
    assert.ok(!server.requests.some((r) => messagesOf(r)[0]?.content === SAMPLING_SYSTEM));
    assert.match(cli.stderr, /refused MCP server "everything"'s request to have the model answer a prompt \(sampling\): there is no terminal to ask on; pass --allow-sampling to allow it/);
    const result = cli.events.find((e) => e.type === 'tool_result' && e.name === 'everything__trigger-sampling-request')!;
    assert.equal(result.ok, false, String(result.content));
    assert.match(String(result.content), /reject|refus|declin/i);
  });
});
