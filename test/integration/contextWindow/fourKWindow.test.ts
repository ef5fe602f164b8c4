// Issue 5's target, through the real CLI: a 25-round file task (read twelve ~2 KB notes, rename each after
// its content) completes inside a 4,096-token window over both wire formats, and no request is ever over the
// window as a conservative server-side token proxy counts it. Also measures what the system prompt and the
// built-in tool definitions cost before the user says a word (must be ≤ 2,000 tokens).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { estimateTokens, estimateToolDefinitionTokens } from '../../../src/core/tokens';
import type { ToolDefinition } from '../../../src/core/messages';
import { FILE_COUNT, FILE_TASK, TOOL_ROUNDS, fileTaskModel, fileTaskWorkspace, noteName, renamed } from '../../helpers/tasks/fileTask';
import { CHARS_PER_TOKEN, WindowedScript, proxyPromptTokens, toolNamesOf } from '../../helpers/fakeLlm/windowedScript';

const WINDOW = 4096;
const OVERHEAD_BUDGET = 2000;

interface Variant {
  name: string;
  start(script: Script, name: string): Promise<FakeServerHandle>;
  flags(server: FakeServerHandle): string[];
}

const VARIANTS: Variant[] = [
  ...WIRE_FORMATS.map((w) => ({ name: `${w.name}, --num-ctx ${WINDOW}`, start: w.start, flags: (s: FakeServerHandle) => [...w.flags(s), '--num-ctx', String(WINDOW)] })),
  {
    // No --num-ctx: the window comes from LM Studio's model listing (loaded_context_length).
    name: 'openai (LM Studio reports loaded_context_length 4096)',
    start: (script, name) =>
      startFakeOpenAIServer(script, { name, models: [{ id: 'test-model', maxContextLength: 32768, loadedContextLength: WINDOW }] }),
    flags: (s) => ['--provider', 'openai', '--base-url', s.url, '--model', 'test-model'],
  },
];

/** The system prompt and tool definitions of a request, in our estimate and in the server proxy. */
function overhead(request: ChatBody): { estimate: { prompt: number; tools: number }; proxy: number } {
  const system = (request.messages ?? [])[0];
  assert.equal(system?.role, 'system');
  const tools = (request.tools as Array<{ function: ToolDefinition }>).map((t) => t.function);
  return {
    estimate: { prompt: estimateTokens(String(system.content)), tools: estimateToolDefinitionTokens(tools) },
    proxy: proxyPromptTokens({ messages: [system], tools: request.tools }),
  };
}

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe(`a whole agent in a ${WINDOW}-token window`, () => {
  for (const variant of VARIANTS) {
    test(`25-round file task over ${variant.name}: all 12 notes renamed, compression ran, no request over the window`, async (t) => {
      const ws = fileTaskWorkspace();
      const windowed = new WindowedScript({ window: WINDOW });
      const model = fileTaskModel();
      const server = await variant.start(windowed.script(model), `4k file task (${variant.name})`);
      servers.push(server);

      const run = await runCli(
        ['run', ...variant.flags(server), '--workspace', ws, '--approve', 'all', '--max-rounds', String(TOOL_ROUNDS), '--json', FILE_TASK],
        { cwd: ws, timeoutMs: 60_000 },
      );

      const compressions = run.events.filter((e) => e.type === 'compression');
      const agentRequests = windowed.measured.filter((m) => !m.compression);
      const report =
        `${windowed.measured.length} requests (${agentRequests.length} agent, ${windowed.measured.length - agentRequests.length} compression agent), ` +
        `largest ${windowed.largest} proxy tokens of ${WINDOW}; ${compressions.length} compressions (${compressions.map((c) => c.method).join(', ')})`;
      t.diagnostic(report);
      assert.deepEqual(windowed.overWindow, [], `requests over the window: ${report}`);
      assert.equal(run.code, 0, `${run.stderr}\n${report}`);
      assert.deepEqual(model.failures, []);

      // Every note renamed after the kind written inside it, nothing left behind or lost.
      const names = readdirSync(ws).sort();
      const expected = Array.from({ length: FILE_COUNT }, (_, i) => renamed(i + 1)).sort();
      assert.deepEqual(names, expected);
      for (let n = 1; n <= FILE_COUNT; n++) assert.equal(existsSync(path.join(ws, noteName(n))), false);

      assert.equal(agentRequests.length, TOOL_ROUNDS);
      assert.equal(run.events.filter((e) => e.type === 'round_start').length, TOOL_ROUNDS);
      assert.equal(run.events.at(-1)?.type, 'turn_end');
      assert.equal(run.events.at(-1)?.reason, 'task_completion');

      // The task cannot fit without compression: the read results alone are well over the window.
      const readChars = run.events.filter((e) => e.type === 'tool_result' && e.name === 'read_file').reduce((n, e) => n + String(e.content).length, 0);
      assert.ok(readChars / CHARS_PER_TOKEN > 1.5 * WINDOW, `read results: ${readChars} chars`);
      assert.ok(compressions.length >= 1, report);
      for (const c of compressions) {
        assert.equal(c.window, WINDOW);
        assert.ok(Number(c.tokensAfter) < Number(c.tokensBefore), JSON.stringify(c));
      }
      // The window the client budgets against is the one the server runs.
      const contexts = run.events.filter((e) => e.type === 'context');
      assert.ok(contexts.length >= TOOL_ROUNDS);
      for (const c of contexts) assert.equal(c.window, WINDOW);
      for (const body of server.requests) {
        const options = body.options as { num_ctx?: number } | undefined;
        if (options) assert.equal(options.num_ctx, WINDOW); // Ollama runs exactly what it is sent
      }
      // Calibration works from the proxy counts the server reported.
      const usage = run.events.filter((e) => e.type === 'usage');
      assert.ok(usage.length >= TOOL_ROUNDS);
      assert.deepEqual(
        usage.slice(0, 3).map((u) => u.promptTokens),
        agentRequests.slice(0, 3).map((m) => m.tokens),
      );

      // What the agent costs before the user says a word.
      const first = overhead(server.requests[0]!);
      assert.deepEqual(toolNamesOf(server.requests[0]!).includes('read_file'), true);
      const line =
        `system prompt ${first.estimate.prompt} + built-in tool definitions ${first.estimate.tools} = ` +
        `${first.estimate.prompt + first.estimate.tools} estimated tokens (${first.proxy} by the chars/3.5 server proxy)`;
      t.diagnostic(line);
      console.log(`[${variant.name}] ${line}; ${report}`);
      assert.ok(first.estimate.prompt + first.estimate.tools <= OVERHEAD_BUDGET, line);
      assert.ok(first.proxy <= OVERHEAD_BUDGET, line);
    });
  }
});
