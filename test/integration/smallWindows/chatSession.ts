// The 24-turn chat of the small-window acceptance tests (see chatInEightK*.test.ts): each turn one CLI run
// continuing the same stored session. Every turn asks what kind of document one note is; the model answers from
// a read result it can see, or reads the note first. What a turn costs is counted at the server: every chat
// request, the agent's and the compression agent's.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { WireFormat } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { chatAnswer, chatModel, chatQuestion, compressionModel, type CompressionBehaviour } from '../../helpers/weakModels';
import { fileTaskWorkspace, kindOf, noteName } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { lastLines, runAgent } from './smallWindowRuns';

export const CHAT_WINDOW = 8192;
export const MAX_REQUESTS_PER_TURN = 2.0;
/** Each note asked about twice, two turns apart, the way a user comes back to something. */
export const ASKED = [1, 2, 1, 3, 2, 4, 3, 5, 4, 6, 5, 7, 6, 8, 7, 9, 8, 10, 9, 11, 10, 12, 11, 12];

interface Turn {
  note: number;
  code: number | null;
  answer: string;
  requests: number;
  stderr: string;
}

/** Runs the whole chat against a fresh server (pushed to `servers` for closing) and asserts on it. */
export async function chatAcceptance(t: TestContext, wire: WireFormat, compression: CompressionBehaviour, servers: FakeServerHandle[]): Promise<void> {
  const ws = fileTaskWorkspace();
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-chat8k-')), 'sessions.db');
  const windowed = new WindowedScript({ window: CHAT_WINDOW });
  const model = chatModel();
  const server = await wire.start(windowed.script(model, compressionModel(compression)), `8k chat (${wire.name}, ${compression})`);
  servers.push(server);

  const turns: Turn[] = [];
  let session: string | undefined;
  for (const note of ASKED) {
    const before = windowed.measured.length;
    const run = await runAgent([...wire.flags(server), '--num-ctx', String(CHAT_WINDOW), '--db', db, ...(session ? ['--session', session] : []), chatQuestion(note)], ws);
    session ??= /localharness: session (\S+)/.exec(run.stderr)?.[1];
    const end = run.events.at(-1);
    turns.push({ note, code: run.code, answer: end?.type === 'turn_end' ? String(end.result ?? '') : '', requests: windowed.measured.length - before, stderr: run.stderr });
    if (run.code !== 0 || !session) break; // the session is in no state to go on
  }

  const total = windowed.measured.length;
  const compressionRequests = windowed.measured.filter((m) => m.compression).length;
  const ratio = total / ASKED.length;
  const report =
    `${turns.length} turns, ${total} requests (${total - compressionRequests} agent, ${compressionRequests} compression): ${ratio.toFixed(2)} per turn; ` +
    `per turn: ${turns.map((x) => x.requests).join(' ')}; largest ${windowed.largest} of ${CHAT_WINDOW} proxy tokens`;
  t.diagnostic(report);

  assert.deepEqual(windowed.overWindow, [], `requests over the window: ${report}`);
  const failed = turns.find((x) => x.code !== 0);
  assert.equal(failed, undefined, `turn ${turns.indexOf(failed!) + 1} (${noteName(failed?.note ?? 0)}) exited ${failed?.code}: ${lastLines(failed?.stderr ?? '')}\n${report}`);
  assert.ok(session, 'the first run named its session');
  assert.equal(turns.length, ASKED.length);
  const wrong = turns.filter((x) => x.answer !== chatAnswer(noteName(x.note), kindOf(x.note)));
  assert.deepEqual(
    wrong.map((x) => `${noteName(x.note)}: ${x.answer}`),
    [],
    'every answer names the kind written in the note',
  );
  assert.deepEqual(model.failures, [], report);
  assert.ok(ratio <= MAX_REQUESTS_PER_TURN, `${ratio.toFixed(2)} requests per turn, at most ${MAX_REQUESTS_PER_TURN}: ${report}`);
}
