// Small windows for real (a): twelve ~2 KB notes renamed after their content in a 4,096-token window, over
// both wire formats, with models that only know what each request shows them: a compression model that
// follows its instructions clumsily, one that ignores them, and an agent that believes a cut listing is the
// whole folder (with compression ignored, so the deterministic fallback is what it sees). Every request is
// measured by the server; one over the window is refused loudly.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { compressionModel, renameTaskModel, type CompressionBehaviour, type ModelFn } from '../../helpers/weakModels';
import { FILE_COUNT, FILE_TASK, fileTaskWorkspace } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { assertAllRenamed, compressionSummary, failedMoves, lastLines, renamedCount, rounds, runAgent } from './smallWindowRuns';

const WINDOW = 4096;
const MAX_ROUNDS = 40;
/** Compressions per run, at most: each frees room for two notes or more (it was 10–11 before the room kept for the answer followed the replies). */
const MAX_COMPRESSIONS = 5;

interface Setup {
  name: string;
  agent: () => ModelFn;
  compression: CompressionBehaviour;
}

const SETUPS: Setup[] = [
  { name: 'compression model follows (clumsily)', agent: () => renameTaskModel({ trustsTrimmed: false }), compression: 'follows' },
  { name: 'compression model ignores its tools', agent: () => renameTaskModel({ trustsTrimmed: false }), compression: 'ignores' },
  { name: 'agent trusts a trimmed listing, compression ignored', agent: () => renameTaskModel({ trustsTrimmed: true }), compression: 'ignores' },
];

const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`12 notes × 2 KB in a ${WINDOW}-token window over ${wire.name}`, () => {
    for (const setup of SETUPS) {
      test(`${setup.name}: all 12 renamed, nothing twice, no request over the window`, async (t) => {
        const ws = fileTaskWorkspace();
        const windowed = new WindowedScript({ window: WINDOW });
        const agent = setup.agent();
        const server = await wire.start(windowed.script(agent, compressionModel(setup.compression)), `4k rename, ${setup.name} (${wire.name})`);
        servers.push(server);

        const run = await runAgent([...wire.flags(server), '--num-ctx', String(WINDOW), '--max-rounds', String(MAX_ROUNDS), FILE_TASK], ws);

        const compressionRequests = windowed.measured.filter((m) => m.compression).length;
        const report =
          `${rounds(run)} rounds; ${windowed.measured.length} requests (${windowed.measured.length - compressionRequests} agent, ${compressionRequests} compression), ` +
          `largest ${windowed.largest} of ${WINDOW} proxy tokens; ${compressionSummary(run)}; ${renamedCount(ws, FILE_COUNT)}/${FILE_COUNT} renamed; exit ${run.code}`;
        t.diagnostic(report);
        assert.deepEqual(windowed.overWindow, [], `requests over the window: ${report}`);
        assertAllRenamed(ws, FILE_COUNT, report);
        assert.equal(run.code, 0, `${report}\n${lastLines(run.stderr)}`);
        assert.deepEqual(agent.failures, [], report);
        assert.deepEqual(failedMoves(run), [], 'no move failed (a note moved twice fails: its source is gone)');
        assert.equal(run.events.at(-1)?.reason, 'task_completion');
        assert.ok(run.events.filter((e) => e.type === 'compression').length <= MAX_COMPRESSIONS, report);
      });
    }
  });
}
