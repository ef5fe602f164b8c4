// `localharness run --session ID --resume` after the CLI was killed (SIGKILL, no chance to clean up) in the middle
// of a planned run: the built CLI, a real SQLite file, planner and executor on their own fake servers.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, runCli } from '../../helpers/cli/runCli';
import { startFakeOpenAIServer, type ChatBody, type FakeServerHandle, type ScriptedReply } from '../../helpers/fakeLlm';
import { headerCounts, headerTaskText, headerWorkspace } from '../../helpers/weakModels/headerTask';
import { plannerModel, isPlanRequest, isSynthesisRequest } from '../../helpers/weakModels/plannerModel';
import { executorModel } from '../../helpers/weakModels/executorModel';

const FILES = 4;
const servers: FakeServerHandle[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test('a CLI killed during step 3 of a planned run: --resume continues at step 3 and finishes, nothing done twice', async () => {
  const { ws, files } = headerWorkspace(FILES);
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'lh-cli-resume-')), 'sessions.db');
  const planner = await startFakeOpenAIServer(plannerModel({ plan: 'good' }), { name: 'planner' });
  servers.push(planner);
  // The executor hangs once, on step 3 after its read: that is where the process gets killed.
  const weak = executorModel();
  let hung = false;
  const executor = await startFakeOpenAIServer(
    (request: ChatBody): ScriptedReply => {
      const reply = weak(request);
      const inStep3 = JSON.stringify(request.messages).includes('Step 3 of');
      const afterRead = (request.messages as Array<{ role: string }>).some((m) => m.role === 'tool');
      if (!hung && inStep3 && afterRead) {
        hung = true;
        return { ...reply, fault: 'hang' };
      }
      return reply;
    },
    { name: 'executor' },
  );
  servers.push(executor);
  const flags = ['--provider', 'openai', '--base-url', planner.url, '--planner-model', 'big-planner', '--executor-model', 'small-executor', '--executor-base-url', executor.url, '--db', db, '--workspace', ws, '--approve', 'all'];

  const child = spawn(process.execPath, [CLI, 'run', ...flags, headerTaskText(FILES)], { cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!hung && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assert.ok(hung, `the executor never reached step 3: ${stderr}`);
  child.kill('SIGKILL');
  await exited;
  const sessionId = /session (\S+)/.exec(stderr)?.[1];
  assert.ok(sessionId, stderr);
  assert.deepEqual(headerCounts(ws, files), [1, 1, 0, 0]);

  const resumed = await runCli(['run', ...flags, '--session', sessionId, '--resume', '--json'], { cwd: ws });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming the planned run at step 3 of 4/);
  assert.deepEqual(headerCounts(ws, files), files.map(() => 1));
  assert.equal(planner.requests.filter(isPlanRequest).length, 1, 'not planned again');
  assert.equal(planner.requests.filter(isSynthesisRequest).length, 1);
  assert.deepEqual(resumed.events.filter((e) => e.type === 'step_start').map((e) => e.stepId), ['3', '4']);
  assert.equal(resumed.events.at(-1)?.type, 'turn_end');
  assert.equal(resumed.events.at(-1)?.reason, 'completed');

  // Nothing left: a second --resume says so plainly.
  const again = await runCli(['run', ...flags, '--session', sessionId, '--resume'], { cwd: ws });
  assert.equal(again.code, 1);
  assert.match(again.stderr, /has no unfinished planned run/);
});
