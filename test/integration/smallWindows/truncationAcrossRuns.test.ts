// Issue 20 (4): truncation evidence lasts as long as the session. An older Ollama (no context_length in /api/ps)
// that runs 4,096 tokens while the CLI asks for 16,384, and one `run --session ID` per turn: each run makes a
// single request, so no one process ever sees two counts. The counts the detector relies on are stored with the
// session; the cut is reported within two cut requests across the runs, and a server that really runs the window
// the CLI asks for is never reported, however many runs.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOllamaServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { TruncatingWindow, compressionModel } from '../../helpers/weakModels';
import { fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { runAgent, type CliEvent } from './smallWindowRuns';

const ASKED = 16384;
const TURNS = 18;
const WINDOW_NOTICE = /num_ctx|OLLAMA_CONTEXT_LENGTH|\bcut\b|truncat/i;

/**
 * A turn's message of about 220 proxy tokens: the conversation grows by that much per run, and once the window is
 * found to be 4,096 the last five exchanges (never compressed) still leave room for the answer.
 */
function message(turn: number): string {
  const lines = Array.from({ length: 7 }, (_, i) => `${turn}.${i + 1}: the build step ${i + 1} of run ${turn} finished with no warnings and its artefacts were uploaded.`);
  return `Turn ${turn}. Keep this log for later; just say "Noted."\n${lines.join('\n')}`;
}

const noted = (_request: ChatBody): ScriptedReply => ({ text: 'Noted.' });

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function runTurns(window: TruncatingWindow): Promise<{ noticeRun: number; cutRuns: number[]; notices: string[] }> {
  const server = await startFakeOllamaServer(window.script(noted, compressionModel('follows')), { name: `runs of one session (${window.window})` });
  servers.push(server);
  const ws = fileTaskWorkspace(1);
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-evidence-')), 'sessions.db');
  const flags = ['--provider', 'ollama', '--base-url', server.origin, '--model', 'test-model', '--num-ctx', String(ASKED), '--db', db];
  let session: string | undefined;
  let noticeRun = 0;
  const cutRuns: number[] = [];
  const notices: string[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    const before = window.records.length;
    const run = await runAgent([...flags, ...(session ? ['--session', session] : []), message(turn)], ws);
    assert.equal(run.code, 0, run.stderr);
    session ??= String(run.events.find((e: CliEvent) => e.type === 'turn_start')?.sessionId);
    if (window.records.slice(before).some((r) => r.cut && !r.compression)) cutRuns.push(turn);
    const said = run.events.filter((e) => e.type === 'notice' && WINDOW_NOTICE.test(String(e.message))).map((e) => String(e.message));
    notices.push(...said);
    if (said.length && !noticeRun) noticeRun = turn;
  }
  return { noticeRun, cutRuns, notices };
}

describe('truncation detected across separate runs of one session (Ollama without context_length in /api/ps)', () => {
  test('a server running 4,096 when 16,384 are asked is reported within two cut requests', async (t) => {
    const { noticeRun, cutRuns, notices } = await runTurns(new TruncatingWindow(4096));
    t.diagnostic(`runs with a cut request: ${cutRuns.join(', ')}; first window notice in run ${noticeRun}`);
    assert.ok(cutRuns.length >= 2, `the scenario cuts prompts in several runs: ${cutRuns.join(', ')}`);
    assert.ok(noticeRun > 0, 'the cut was reported');
    assert.ok(noticeRun <= cutRuns[0]! + 1, `reported by the second cut request (first cut in run ${cutRuns[0]}, notice in run ${noticeRun})`);
    assert.match(notices[0]!, /4,?096/);
    assert.match(notices[0]!, /OLLAMA_CONTEXT_LENGTH|num_ctx/);
  });

  test('a server that really runs what is asked is never reported', async () => {
    const { noticeRun, cutRuns, notices } = await runTurns(new TruncatingWindow(ASKED));
    assert.deepEqual(cutRuns, []);
    assert.equal(noticeRun, 0, notices.join('\n'));
  });
});
