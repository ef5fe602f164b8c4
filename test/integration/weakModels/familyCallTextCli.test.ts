// Through the real CLI on both wire formats: `doctor --db` sees a model print its calls in its family's own syntax
// (Devstral's `[TOOL_CALLS]NAME[ARGS]{…}`, which the server did not parse) and remembers it; the next `run --db`
// says so, keeps native tool calling, runs the model's text calls, and never shows them as the answer.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { setupProbeModel } from '../../helpers/weakModels';
import { renderCalls } from '../../helpers/weakModels/callText';
import { notices, shownText, tempWorkspace, turnEnd, FAST_RETRY_ENV } from './weakCli';

const MODEL = 'devstral:24b';
const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The probe's requests as the setup check sends them; the run's: write hello.md in Devstral text, then say so. */
function devstralModel(): (body: ChatBody) => ScriptedReply {
  const probe = setupProbeModel({ native: 'family-text', text: 'follows', family: 'devstral' });
  return (body) => {
    const probed = probe(body);
    if (probed) return probed;
    const last = body.messages?.at(-1);
    if (last?.role === 'tool') return { text: 'I wrote hello.md with a greeting.' };
    const calls = [{ name: 'write_file', arguments: { path: 'hello.md', content: '# Hello\n' } }];
    return { text: `Writing the file.\n${renderCalls('devstral', calls)}`, chunkSize: 5 };
  };
}

const wires = [
  {
    name: 'ollama',
    start: () => startFakeOllamaServer(devstralModel(), { models: [{ name: MODEL, contextLength: 32768, capabilities: ['completion', 'tools'] }] }),
    flags: (s: FakeServerHandle) => ['--provider', 'ollama', '--base-url', s.origin, '--model', MODEL],
  },
  {
    name: 'openai',
    start: () => startFakeOpenAIServer(devstralModel(), { models: [{ id: MODEL, maxContextLength: 32768 }] }),
    flags: (s: FakeServerHandle) => ['--provider', 'openai', '--base-url', s.url, '--model', MODEL],
  },
];

describe("a model's own call syntax, checked once and remembered", () => {
  for (const wire of wires) {
    test(`${wire.name}: doctor --db reports the syntax; run --db keeps native calls and runs the text calls`, async () => {
      const server = await wire.start();
      servers.push(server);
      const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-family-db-')), 'sessions.db');
      const doctor = await runCli(['doctor', ...wire.flags(server), '--db', db, '--json']);
      assert.equal(doctor.code, 0, doctor.stderr);
      const report = doctor.events[0] as unknown as { tools: Record<string, unknown> };
      assert.equal(report.tools.callSyntax, 'devstral');
      assert.equal(report.tools.protocol, 'native');
      assert.match(String(report.tools.summary), /writes its tool calls as text in its own format \(Devstral \[TOOL_CALLS\]NAME\[ARGS\]\)/);

      const ws = tempWorkspace('family');
      const before = server.requests.length;
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--db', db, '--approve', 'all', '--json', 'Create hello.md with a greeting'], {
        cwd: ws,
        env: FAST_RETRY_ENV,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'hello.md'), 'utf8'), '# Hello\n');
      const first = server.requests[before]!;
      assert.ok(Array.isArray(first.tools) && first.tools.length > 0, 'the run offers tools natively');
      assert.ok(notices(run).some((n) => /^The setup check \(\d{4}-\d\d-\d\d\) found that devstral:24b writes its tool calls as text in its own format/.test(n)), notices(run).join('\n'));
      assert.ok(notices(run).some((n) => /wrote a tool call as text \(Devstral \[TOOL_CALLS\]NAME\[ARGS\]\) instead of calling it; running it \(write_file\)/.test(n)));
      const shown = shownText(run);
      assert.doesNotMatch(shown, /TOOL_CALLS|\[ARGS\]|write_file|# Hello/);
      const end = turnEnd(run);
      assert.equal(end.reason, 'completed');
      assert.equal(end.result, 'I wrote hello.md with a greeting.');
    });
  }
});
