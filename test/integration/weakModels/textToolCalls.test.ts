// Tool calls written as text, through the real CLI over both wire formats: JSON printed instead of a native
// call, a model without native tool calling working only through `<tool>` blocks, malformed blocks, and
// `<think>` blocks in content.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS, messagesOf, toolResults, type WireFormat } from '../../helpers/cli/wire';
import { startFakeOllamaServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import {
  ServerPool,
  appendCall,
  lastUserContent,
  logLines,
  notices,
  offersTools,
  oneNotice,
  runAgent,
  shownText,
  shownThinking,
  tempWorkspace,
  toolResultEvents,
  turnEnd,
} from './weakCli';

/** A `<tool>` block as the text protocol asks for it. */
function block(tool: string, args: Record<string, unknown>): string {
  return `<tool>${JSON.stringify({ server_name: 'local', tool_name: tool, arguments: args })}</tool>`;
}

/**
 * A model with no native tool calling: on Ollama one whose /api/show capabilities lack "tools" (the CLI
 * picks the text protocol by itself; the fake server would answer 400 to a request with tools), on an
 * OpenAI-compatible server one run with `--tool-protocol xml`.
 */
async function startToolless(wire: WireFormat, script: Script, name: string): Promise<{ server: FakeServerHandle; flags: string[] }> {
  if (wire.name === 'ollama') {
    const server = await startFakeOllamaServer(script, { name, models: [{ name: 'test-model', contextLength: 32768, capabilities: ['completion'] }] });
    return { server, flags: wire.flags(server) };
  }
  const server = await wire.start(script, name);
  return { server, flags: [...wire.flags(server), '--tool-protocol', 'xml'] };
}

function assertNoMarkupShown(text: string): void {
  assert.doesNotMatch(text, /<\/?tool>|server_name|tool_name|<\/?think>/, `markup reached the text events: ${text}`);
}

for (const wire of WIRE_FORMATS) {
  describe(`text tool calls over ${wire.name}`, () => {
    const pool = new ServerPool();
    after(() => pool.closeAll());

    test('native mode: a tool call printed as JSON text (fenced or bare) is run once', async () => {
      const ws = tempWorkspace('jsontext');
      const server = await pool.add(
        wire.start(
          [
            { text: 'I will run it now.\n```json\n{"name": "run_command", "arguments": {"command": "echo json >> log.txt"}}\n```' },
            { text: '{"name": "read_file", "arguments": {"path": "log.txt"}}' },
            { text: 'Done: log.txt has the line "json".' },
          ],
          'json-as-text',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "json" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['json']);
      oneNotice(run, /^The model wrote a tool call as text instead of calling it; running it \(run_command\)\.$/);
      oneNotice(run, /^The model wrote a tool call as text instead of calling it; running it \(read_file\)\.$/);
      assert.ok(offersTools(server.requests[0]!), 'native mode sends the tools');
      // History holds real calls, so the model sees its call and the result the normal way.
      const assistants = messagesOf(server.requests[2]!).filter((m) => m.role === 'assistant');
      assert.deepEqual(assistants.map((m) => m.toolCalls), [['run_command'], ['read_file']]);
      assert.equal(assistants[0]!.content, 'I will run it now.');
      assert.match(toolResults(server.requests[2]!)[1]!, /json/);
      assert.deepEqual(toolResultEvents(run).map((r) => [r.name, r.ok]), [['run_command', true], ['read_file', true]]);
      assert.equal(turnEnd(run).reason, 'completed');
    });

    test('a model without tool support does a multi-step file task entirely through <tool> text', async () => {
      const ws = tempWorkspace('toolless');
      writeFileSync(path.join(ws, 'notes.txt'), 'alpha\nbeta\n');
      mkdirSync(path.join(ws, 'out'));
      const summary = 'Notes: ALPHA, beta\nA literal </tool> in file content is data.\n';
      const { server, flags } = await startToolless(
        wire,
        [
          { text: `I'll read the notes first.\n${block('read_file', { path: 'notes.txt' })}`, chunkSize: 3 },
          {
            text: `${block('edit_file', { path: 'notes.txt', old_text: 'alpha', new_text: 'ALPHA' })}\n${block('write_file', { path: 'out/summary.txt', content: summary })}`,
            chunkSize: 5,
          },
          { text: `Logging the run.${block('run_command', { command: 'echo xml >> log.txt' })}` },
          { text: 'I have updated notes.txt, written out/summary.txt and logged the run. All done.' },
        ],
        'toolless',
      );
      await pool.add(Promise.resolve(server));
      const run = await runAgent(flags, ws, 'Uppercase alpha in notes.txt, write out/summary.txt, then log the run');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'ALPHA\nbeta\n');
      assert.equal(readFileSync(path.join(ws, 'out/summary.txt'), 'utf8'), summary);
      assert.deepEqual(logLines(ws), ['xml']);
      assert.deepEqual(toolResultEvents(run).map((r) => [r.name, r.ok]), [
        ['read_file', true],
        ['edit_file', true],
        ['write_file', true],
        ['run_command', true],
      ]);
      if (wire.name === 'ollama') oneNotice(run, /does not report native tool calling; using text-based tool calls/);

      assert.equal(server.requests.length, 4);
      for (const request of server.requests) {
        assert.equal('tools' in request, false, 'no tools field in text mode');
        assert.ok(messagesOf(request).every((m) => m.role !== 'tool' && m.toolCalls.length === 0), 'no native tool messages');
      }
      const system = messagesOf(server.requests[0]!)[0]!;
      assert.equal(system.role, 'system');
      assert.match(system.content, /# Calling tools/);
      assert.match(system.content, /- read_file\(/);
      // Results come back as user messages, and the model's own calls as <tool> text.
      const second = messagesOf(server.requests[1]!);
      assert.match(second.at(-1)!.content, /^\[Result of read_file\]\n[\s\S]*alpha/);
      assert.match(second.at(-2)!.content, /^I'll read the notes first\.\n<tool>\{"server_name":"local","tool_name":"read_file"/);
      assert.match(lastUserContent(server.requests[3]!), /^\[Result of run_command\]/);

      const shown = shownText(run);
      assertNoMarkupShown(shown);
      // Only the prose around the blocks is shown (the newlines that separated blocks are layout).
      assert.equal(shown.replace(/\s+/g, ' '), "I'll read the notes first. Logging the run.I have updated notes.txt, written out/summary.txt and logged the run. All done.");
      assert.equal(turnEnd(run).reason, 'completed');
    });

    test('malformed <tool> blocks (bad JSON, missing field, unknown tool) get corrective feedback and the loop goes on', async () => {
      const ws = tempWorkspace('malformed');
      const { server, flags } = await startToolless(
        wire,
        [
          { text: 'Reading it.\n<tool>{"server_name":"local","tool_name":"read_file","arguments":{"path":"a.txt"}</tool>' },
          { text: '<tool>{"server_name":"local","arguments":{"path":"a.txt"}}</tool>' },
          { text: `${block('delete_everything', {})}\n${block('run_command', { command: 'echo fixed >> log.txt' })}` },
          { text: 'Done: I added "fixed" to log.txt.' },
        ],
        'malformed',
      );
      await pool.add(Promise.resolve(server));
      const run = await runAgent(flags, ws, 'Append "fixed" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['fixed']);
      assert.equal(server.requests.length, 4);

      const afterBadJson = lastUserContent(server.requests[1]!);
      assert.match(afterBadJson, /^Your tool call could not be run:\n- The <tool> block is not valid JSON \(/);
      assert.match(afterBadJson, /Write each call exactly like this: <tool>\{"server_name":"local","tool_name":"list_directory"/);
      assert.match(lastUserContent(server.requests[2]!), /The <tool> block is missing "tool_name" \(it has "server_name", "arguments"\)/);
      // A reply with one good and one bad call: the good one runs, the feedback follows its result.
      const afterUnknown = lastUserContent(server.requests[3]!);
      assert.match(afterUnknown, /^\[Result of run_command\]/);
      assert.match(afterUnknown, /There is no tool "delete_everything" on server "local"\. Available tools: list_directory, read_file/);

      oneNotice(run, /^The model's tool call could not be read \(invalid JSON\); sent it a correction \(1\/5\)\.$/);
      oneNotice(run, /^The model's tool call could not be read \(a missing field\); sent it a correction \(2\/5\)\.$/);
      oneNotice(run, /^Some of the model's tool calls could not be read \(an unknown tool\); sent it a correction\.$/);
      assert.deepEqual(toolResultEvents(run).map((r) => r.name), ['run_command']);
      assertNoMarkupShown(shownText(run));
      assert.equal(turnEnd(run).result, 'Done: I added "fixed" to log.txt.');
    });

    for (const mode of ['native', 'xml'] as const) {
      test(`<think>…</think> in content never reaches text events (${mode} mode)`, async () => {
        const ws = tempWorkspace(`think-${mode}`);
        const call = appendCall(`think-${mode}`);
        const first =
          mode === 'native'
            ? { thinking: 'The user wants one line appended.', thinkTags: true, text: 'Appending.', toolCalls: [call], chunkSize: 3 }
            : { thinking: 'The user wants one line appended.', thinkTags: true, text: `Appending.${block(call.name, call.arguments)}`, chunkSize: 3 };
        const server = await pool.add(
          wire.start([first, { thinking: 'Now a short summary.', thinkTags: true, text: 'Done: log.txt has the new line.', chunkSize: 2 }], `think-${mode}`),
        );
        const run = await runAgent(wire.flags(server), ws, 'Append a line to log.txt', ['--tool-protocol', mode]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(logLines(ws), [`think-${mode}`]);
        assert.equal(offersTools(server.requests[0]!), mode === 'native');
        const shown = shownText(run);
        assertNoMarkupShown(shown);
        assert.equal(shown, 'Appending.Done: log.txt has the new line.');
        const thinking = shownThinking(run);
        assert.match(thinking, /The user wants one line appended\./);
        assert.match(thinking, /Now a short summary\./);
        assert.doesNotMatch(thinking, /<\/?think>/);
        assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: 'Done: log.txt has the new line.' });
        assert.equal(notices(run).some((n) => /could not be read/.test(n)), false);
      });
    }
  });
}
