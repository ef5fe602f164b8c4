// The write guard against a weak model with the lazy-rewrite habit, through the real CLI under --approve all, on
// both wire formats and in the text tool protocol: a whole-file rewrite with "// ... rest of the code unchanged
// ..." and an edit holding "// ... existing code ..." are refused, app.js keeps all 60 lines, the model is told
// to use a small edit, makes it, and the task completes. Also: a catastrophic search pattern ends in seconds.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS, type WireFormat } from '../../helpers/cli/wire';
import { startFakeOllamaServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { lazyRewriter, type LazyHabit } from '../../helpers/weakModels/lazyRewriter';
import { ServerPool, lastUserContent, runAgent, tempWorkspace, toolResultEvents, turnEnd } from './weakCli';

const HEADER = "'use strict';";

/** A 60-line app.js of 12 small functions. */
function appJs(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 12; i++) lines.push(`function step${i}(x) {`, `  const y = x + ${i};`, `  console.log('step ${i}', y);`, '  return y;', '}');
  return lines.join('\n') + '\n';
}

type Protocol = 'native' | 'text';

async function start(wire: WireFormat, protocol: Protocol, script: Script, name: string): Promise<{ server: FakeServerHandle; flags: string[] }> {
  if (protocol === 'native') {
    const server = await wire.start(script, name);
    return { server, flags: wire.flags(server) };
  }
  // A model without native tool calling: Ollama's capabilities lack "tools"; on OpenAI the protocol is forced.
  if (wire.name === 'ollama') {
    const server = await startFakeOllamaServer(script, { name, models: [{ name: 'test-model', contextLength: 32768, capabilities: ['completion'] }] });
    return { server, flags: wire.flags(server) };
  }
  const server = await wire.start(script, name);
  return { server, flags: [...wire.flags(server), '--tool-protocol', 'xml'] };
}

for (const wire of WIRE_FORMATS) {
  for (const protocol of ['native', 'text'] as const) {
    describe(`write guard over ${wire.name}, ${protocol} tool calls`, () => {
      const pool = new ServerPool();
      after(() => pool.closeAll());

      for (const habit of ['rewrite', 'edit'] as LazyHabit[]) {
        test(`a lazy ${habit === 'rewrite' ? 'whole-file rewrite' : 'edit with a placeholder'} leaves app.js intact; the model then edits it correctly`, async () => {
          const ws = tempWorkspace(`guard-${habit}`);
          const original = appJs();
          writeFileSync(path.join(ws, 'app.js'), original);
          const model = lazyRewriter('app.js', HEADER, habit);
          const { server, flags } = await start(wire, protocol, (request) => model(request), `lazy-${habit}`);
          await pool.add(Promise.resolve(server));
          const run = await runAgent(flags, ws, `Add the line ${HEADER} at the top of app.js`);
          assert.equal(run.code, 0, run.stderr);

          assert.equal(readFileSync(path.join(ws, 'app.js'), 'utf8'), `${HEADER}\n${original}`, 'all 60 lines kept, the header added once');
          const results = toolResultEvents(run);
          const lazyTool = habit === 'rewrite' ? 'write_file' : 'edit_file';
          assert.deepEqual(results.map((r) => [r.name, r.ok]), [
            ['read_file', true],
            [lazyTool, false],
            ['edit_file', true],
          ]);
          // The user sees why (the tool result event the CLI and chat show) and the model is told what to do.
          const refusal = results[1]!.content;
          assert.match(refusal, habit === 'rewrite' ? /rest of the code unchanged \.\.\.", a placeholder/ : /existing code \.\.\.", a placeholder/);
          assert.match(refusal, /app\.js was not changed/);
          assert.match(refusal, habit === 'rewrite' ? /use edit_file/ : /complete replacement in new_text/);
          const afterRefusal = server.requests[2]!;
          const told = protocol === 'native' ? JSON.stringify(afterRefusal.messages) : lastUserContent(afterRefusal);
          assert.match(told, /Not applied/);
          assert.equal(
            server.requests.every((r) => Array.isArray(r.tools) && r.tools.length > 0),
            protocol === 'native',
            protocol === 'native' ? 'native tools offered' : 'the text protocol offers no native tools',
          );
          assert.equal(turnEnd(run).reason, 'completed');
        });
      }

      test('a catastrophic search pattern ends in seconds as "too slow", and the task goes on', async () => {
        const ws = tempWorkspace('regex');
        writeFileSync(path.join(ws, 'evil.txt'), 'a'.repeat(40) + '!\n');
        const { server, flags } = await start(
          wire,
          protocol,
          (request) => {
            const seen = JSON.stringify(request.messages);
            if (seen.includes('too slow')) return { text: 'That pattern is too slow; evil.txt holds 40 a and a !.' };
            if (Array.isArray(request.tools) && request.tools.length) return { toolCalls: [{ name: 'search_files', arguments: { pattern: '(a+)+$', path: 'evil.txt' } }] };
            return { text: `<tool>${JSON.stringify({ server_name: 'local', tool_name: 'search_files', arguments: { pattern: '(a+)+$', path: 'evil.txt' } })}</tool>` };
          },
          'regex',
        );
        await pool.add(Promise.resolve(server));
        const started = Date.now();
        const run = await runAgent(flags, ws, 'Find runs of a at line ends in evil.txt');
        assert.equal(run.code, 0, run.stderr);
        assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
        const results = toolResultEvents(run);
        assert.equal(results[0]?.name, 'search_files');
        assert.equal(results[0]?.ok, false);
        assert.match(results[0]!.content, /too slow to match/);
        assert.equal(turnEnd(run).reason, 'completed');
      });
    });
  }
}
