// Broken transports through the real CLI, over both wire formats: HTTP 500s, a stream cut after text and a
// tool call, a primary model that always fails (fallback), and everything failing. Retries must never
// show text twice or run a tool twice.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli/runCli';
import { WIRE_FORMATS, toolResults } from '../../helpers/cli/wire';
import type { ChatBody, ScriptedReply } from '../../helpers/fakeLlm';
import { ServerPool, appendCall, logLines, notices, oneNotice, runAgent, shownText, tempWorkspace, toolResultEvents, turnEnd } from './weakCli';

/** A model-aware script: the primary always answers HTTP 500, the backup plays `backup` in order. */
function primaryDownScript(backup: ScriptedReply[]): (request: ChatBody) => ScriptedReply | undefined {
  let next = 0;
  return (request) => (request.model === 'test-model' ? { fault: 'http500', errorMessage: 'CUDA error: out of memory' } : backup[next++]);
}

for (const wire of WIRE_FORMATS) {
  describe(`weak transport over ${wire.name}`, () => {
    const pool = new ServerPool();
    after(() => pool.closeAll());

    test('HTTP 500s are retried; the tool runs once and the answer is shown once', async () => {
      const ws = tempWorkspace('http500');
      const answer = 'I added "once" to log.txt.';
      const server = await pool.add(
        wire.start(
          [{ fault: 'http500' }, { text: 'Appending now.', toolCalls: [appendCall('once')] }, { fault: 'http500', status: 503 }, { text: answer }],
          'http-500',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "once" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 4);
      assert.deepEqual(logLines(ws), ['once']);
      assert.equal(shownText(run), `Appending now.${answer}`);
      const retries = notices(run).filter((n) => /retrying in/.test(n));
      assert.equal(retries.length, 2, notices(run).join('\n'));
      assert.match(retries[0]!, /^The server failed \(HTTP 500\) \(test-model on .*\); retrying in 5 ms \(attempt 2 of 3\)\.$/);
      assert.match(retries[1]!, /HTTP 503/);
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: answer });
    });

    test('a stream cut after text and a tool call is retried; the text is not repeated and the tool runs once', async () => {
      const ws = tempWorkspace('cut');
      const reply: ScriptedReply = { text: 'Appending the line to the log now.', toolCalls: [appendCall('cut-once')] };
      const server = await pool.add(
        wire.start([{ ...reply, fault: 'cut' }, reply, { text: 'Done: log.txt has the new line.' }], 'stream-cut'),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "cut-once" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['cut-once']);
      assert.equal(server.requests.length, 3);
      // The retry resent the same request: nothing from the broken attempt leaked into history.
      assert.deepEqual(server.requests[1]!.messages, server.requests[0]!.messages);
      assert.equal(toolResults(server.requests[2]!).length, 1);
      oneNotice(run, /^The reply stream ended before the reply was complete \(test-model on .*\); retrying in 5 ms \(attempt 2 of 3\)\.$/);
      assert.equal(notices(run).some((n) => /restarted after a connection problem/.test(n)), false, 'the retry said the same thing');
      assert.equal(shownText(run), 'Appending the line to the log now.Done: log.txt has the new line.');
      assert.equal(run.events.filter((e) => e.type === 'tool_call').length, 1);
      assert.equal(toolResultEvents(run).length, 1);
    });

    test('an error mid-stream, then a connection reset, then a different reply: marked as replacing the cut-off text', async () => {
      const ws = tempWorkspace('diverge');
      const server = await pool.add(
        wire.start(
          [
            { text: 'First I will look at the', fault: 'midstream_error', errorMessage: 'llama_decode failed' },
            { fault: 'reset' },
            { text: 'Let me append the line.', toolCalls: [appendCall('diverge-once')] },
            { text: 'I added the line to log.txt.' },
          ],
          'stream-diverge',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "diverge-once" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['diverge-once']);
      assert.equal(server.requests.length, 4);
      const retries = notices(run).filter((n) => /retrying in/.test(n));
      assert.equal(retries.length, 2, notices(run).join('\n'));
      assert.match(retries[0]!, /^The reply broke off with an error .*attempt 2 of 3/);
      assert.match(retries[1]!, /attempt 3 of 3/);
      oneNotice(run, /restarted after a connection problem; the text below replaces the cut-off text above/);
      // The cut-off text was shown once, then the replacement in full.
      assert.equal(shownText(run), 'First I will look at theLet me append the line.I added the line to log.txt.');
    });

    test('a primary that keeps failing hands the turn to --fallback-model, and a notice says so', async () => {
      const ws = tempWorkspace('fallback');
      const server = await pool.add(
        wire.start(
          primaryDownScript([{ toolCalls: [appendCall('backup')] }, { text: 'I added "backup" to log.txt using the backup model.' }]),
          'fallback',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "backup" to log.txt', ['--fallback-model', 'backup-model']);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['backup']);
      const models = server.requests.map((r) => r.model);
      // Three tries on the primary (1 + 2 retries), then the backup for the rest of the turn.
      assert.deepEqual(models, ['test-model', 'test-model', 'test-model', 'backup-model', 'backup-model']);
      assert.match(
        oneNotice(run, /Continuing with backup-model/),
        /^test-model on .* failed: the server failed \(HTTP 500\)\. Continuing with backup-model on /,
      );
      assert.equal(turnEnd(run).reason, 'completed');
    });

    test('when every model fails, the CLI exits 1 with one plain message', async () => {
      const ws = tempWorkspace('allfail');
      const server = await pool.add(wire.start(() => ({ fault: 'http500', errorMessage: 'model runner crashed' }), 'all-fail'));
      const run = await runAgent(wire.flags(server), ws, 'Append "x" to log.txt', ['--fallback-model', 'backup-model']);
      assert.equal(run.code, 1);
      assert.equal(server.requests.length, 6, 'three tries per model');
      assert.deepEqual(logLines(ws), []);
      const error = run.events.find((e) => e.type === 'error');
      const message = String(error?.message);
      assert.match(message, /^The model did not answer\. Tried test-model on .*: the server failed \(HTTP 500\) \(3 attempts\); backup-model on .*: the server failed \(HTTP 500\) \(3 attempts\)\./);
      assert.match(message, /check its log, or try a smaller model/);
      assert.equal(turnEnd(run).reason, 'error');
      // stderr: the same message on one line, no stack trace or unhandled rejection.
      const lines = run.stderr.trim().split('\n').filter((l) => !/^localharness: session /.test(l));
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, /^The model did not answer\./);
      assert.doesNotMatch(run.stderr, /\n\s+at |Unhandled|ProviderError/);
    });
  });
}

describe('retry backoff setting', () => {
  test('a bad LOCALHARNESS_RETRY_BACKOFF_MS is a usage error (exit 2) naming the variable', async () => {
    const ws = tempWorkspace('backoff-env');
    const run = await runCli(['run', '--workspace', ws, 'hello'], { cwd: ws, env: { LOCALHARNESS_RETRY_BACKOFF_MS: 'fast' } });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /LOCALHARNESS_RETRY_BACKOFF_MS must be a whole number of milliseconds from 0 to 60000, got "fast"/);
  });
});
