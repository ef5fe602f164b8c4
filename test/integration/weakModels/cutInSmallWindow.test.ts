// A call cut at the output limit in a small window on a server that checks a request's length (vLLM refuses a
// prompt plus `max_tokens` past max_model_len with a 400): the retry's raised limit must fit the room the window
// leaves, or the retry itself is refused and the turn dies. Through the real CLI, --approve all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOpenAIServer } from '../../helpers/fakeLlm';
import { roughPromptTokens } from '../../helpers/fakeLlm/script';
import { longWriteModel, requestLimit, SERVER_DEFAULT_LIMIT } from '../../helpers/weakModels/longWriteModel';
import { tempRoot } from './inProcessTurn';

const WINDOW = 4096;
const ORIGINAL = Array.from({ length: 60 }, (_, i) => `function step${i}() { return ${i} * 2; } // step ${i} of the pipeline`).join('\n') + '\n';
const NEW_LINE = "'use strict';";

test('vLLM, 4,096 tokens: the raised output limit fits the window, the retry is not refused, the task completes', async (t) => {
  const ws = tempRoot('cut-vllm');
  writeFileSync(path.join(ws, 'app.js'), ORIGINAL);
  const model = longWriteModel('native', { file: 'app.js', original: ORIGINAL, newLine: NEW_LINE });
  const server = await startFakeOpenAIServer(model, { name: 'vllm cut', vllmVersion: '0.10.1', lmStudioApi: false, models: [{ id: 'tiny', loadedContextLength: WINDOW }] });
  t.after(() => server.close());
  const run = await runCli(
    ['run', '--provider', 'openai', '--base-url', server.url, '--model', 'tiny', '--workspace', ws, '--approve', 'all', '--json', `Add ${NEW_LINE} at the top of app.js`],
    { cwd: ws, env: { LOCALHARNESS_RETRY_BACKOFF_MS: '5' }, timeoutMs: 60_000 },
  );
  const asked = server.requests.map((r) => ({ prompt: roughPromptTokens(r), limit: requestLimit(r) }));
  const report = `exit ${run.code}; requests ${JSON.stringify(asked)}\n${run.stderr.slice(-600)}`;
  assert.equal(run.code, 0, report);
  assert.equal(readFileSync(path.join(ws, 'app.js'), 'utf8'), `${NEW_LINE}\n${ORIGINAL}`, report);
  assert.equal(run.events.at(-1)?.reason, 'task_completion', report);
  for (const a of asked) assert.ok(a.limit === undefined || a.prompt + a.limit <= WINDOW, `within the window: ${report}`);
  assert.equal(asked[0]!.limit, undefined, 'the first request left the limit to the server');
  assert.ok((asked[1]!.limit ?? 0) > SERVER_DEFAULT_LIMIT, `the retry asked for more than the cut reply got: ${report}`);
});
