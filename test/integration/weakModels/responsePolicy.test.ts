// Models that stop early, refuse, answer with nothing, loop on one call or forget task_completion — through
// the real CLI, over both wire formats, on a real temp workspace. Side effects are counted on disk.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS, messagesOf, toolResults } from '../../helpers/cli/wire';
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
  tempWorkspace,
  toolResultEvents,
  turnEnd,
} from './weakCli';

const DEFLECTION = "I'm sorry, but I can't access your files. You'll need to run the command in your terminal yourself.";

for (const wire of WIRE_FORMATS) {
  describe(`weak model response policy over ${wire.name}`, () => {
    const pool = new ServerPool();
    after(() => pool.closeAll());

    test('premature stop ("3 renamed, 4 remaining…") is nudged on and the task finishes', async () => {
      const ws = tempWorkspace('premature');
      for (let i = 1; i <= 7; i++) writeFileSync(path.join(ws, `f${i}.txt`), `file ${i}\n`);
      const move = (i: number) => ({ name: 'move_file', arguments: { source: `f${i}.txt`, destination: `f${i}.md` } });
      const server = await pool.add(
        wire.start(
          [
            { toolCalls: [move(1), move(2), move(3)] },
            { text: "I've renamed 3 files, 4 remaining…" },
            { toolCalls: [move(4), move(5), move(6), move(7)] },
            { text: 'All 7 files have been renamed from .txt to .md.' },
          ],
          'premature-stop',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Rename every .txt file to .md');
      assert.equal(run.code, 0, run.stderr);
      for (let i = 1; i <= 7; i++) {
        assert.equal(readFileSync(path.join(ws, `f${i}.md`), 'utf8'), `file ${i}\n`);
        assert.equal(existsSync(path.join(ws, `f${i}.txt`)), false);
      }
      // Every move ran once and succeeded (a second run of a move would fail: its source is gone).
      const results = toolResultEvents(run);
      assert.equal(results.length, 7);
      assert.ok(results.every((r) => r.name === 'move_file' && r.ok), JSON.stringify(results));
      assert.match(oneNotice(run, /Nudged the model to continue/), /\(1\/3\): its reply says work remains/);
      assert.equal(server.requests.length, 4);
      // The premature text stays in history, followed by the continuation nudge.
      const third = messagesOf(server.requests[2]!);
      assert.equal(third.at(-2)?.content, "I've renamed 3 files, 4 remaining…");
      assert.match(third.at(-1)!.content, /^You stopped before finishing\. Continue with the remaining work/);
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: 'All 7 files have been renamed from .txt to .md.' });
    });

    test('deflection ("I can\'t access your files") is retried and the model then uses its tools', async () => {
      const ws = tempWorkspace('deflect');
      const server = await pool.add(
        wire.start([{ text: DEFLECTION }, { toolCalls: [appendCall('fixed')] }, { text: 'I ran the command and appended the line to log.txt.' }], 'deflection'),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "fixed" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['fixed']);
      assert.match(oneNotice(run, /declined to use its tools/), /told it to continue with them \(1\/3\)/);
      const second = server.requests[1]!;
      assert.match(lastUserContent(second), /Use the tools; do not ask the user/);
      assert.ok(offersTools(second), 'the retry still offers the tools');
      assert.equal(turnEnd(run).result, 'I ran the command and appended the line to log.txt.');
    });

    test('a model that deflects four times is accepted after three retries and the turn ends', async () => {
      const ws = tempWorkspace('deflect4');
      const server = await pool.add(wire.start(() => ({ text: DEFLECTION }), 'deflection-x4'));
      const run = await runAgent(wire.flags(server), ws, 'Append "fixed" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 4, 'one try plus three retries');
      const retries = notices(run).filter((n) => /declined to use its tools/.test(n));
      assert.deepEqual(
        retries.map((n) => /\((\d\/3)\)/.exec(n)?.[1]),
        ['1/3', '2/3', '3/3'],
      );
      oneNotice(run, /^Accepted the model's reply after 3 attempts to make it use its tools\.$/);
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: DEFLECTION });
      assert.deepEqual(logLines(ws), []);
    });

    test('empty replies are retried twice, then a summary is requested without tools', async () => {
      const ws = tempWorkspace('empty');
      const summary = 'I appended "one" to log.txt; nothing else was needed.';
      const server = await pool.add(
        wire.start([{ toolCalls: [appendCall('one')] }, { text: '' }, { text: '' }, { text: '' }, { text: summary }], 'empty-replies'),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "one" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['one']);
      assert.equal(server.requests.length, 5);
      assert.deepEqual(
        server.requests.map((r) => offersTools(r)),
        [true, true, true, true, false],
        'only the last request, the summary request, has no tools',
      );
      assert.equal('tools' in server.requests[4]!, false, 'no tools field at all on the summary request');
      assert.match(lastUserContent(server.requests[4]!), /^Do not call any tools now\. Reply in plain text with a short summary/);
      assert.match(lastUserContent(server.requests[2]!), /^Your last reply was empty\./);
      oneNotice(run, /empty reply; asked it again \(1\/2\)/);
      oneNotice(run, /empty reply; asked it again \(2\/2\)/);
      oneNotice(run, /kept returning empty replies; asked it for a summary of what it did, without tools/);
      assert.equal(shownText(run), summary);
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: summary });
    });

    test('a model that stays empty even for the summary ends with the static explanation', async () => {
      const ws = tempWorkspace('empty-all');
      const server = await pool.add(wire.start([{ toolCalls: [appendCall('one')] }, { text: '' }, { text: '' }, { text: '' }, { text: '' }], 'empty-forever'));
      const run = await runAgent(wire.flags(server), ws, 'Append "one" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['one']);
      oneNotice(run, /gave no summary either/);
      assert.match(String(turnEnd(run).result), /^The model returned no answer, even when asked for a summary\./);
    });

    test('a summary request answered with a tool call written as <tool> markup: the call runs once, the work goes on, no markup is the answer', async () => {
      const ws = tempWorkspace('summary-markup');
      const markup = `<tool>${JSON.stringify({ tool_name: 'run_command', arguments: appendCall('two').arguments })}</tool>`;
      const done = 'I appended "one" and "two" to log.txt.';
      const server = await pool.add(
        wire.start([{ toolCalls: [appendCall('one')] }, { text: '' }, { text: '' }, { text: '' }, { text: markup }, { text: done }], 'summary-markup'),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "one" and "two" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['one', 'two'], 'the recovered call ran exactly once');
      assert.equal(offersTools(server.requests[4]!), false, 'the summary request itself had no tools');
      assert.equal(offersTools(server.requests[5]!), true, 'after the recovered call the loop goes on with tools');
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'completed', result: done });
      assert.ok(!shownText(run).includes('<tool>'), `markup shown: ${shownText(run)}`);
      assert.equal(toolResultEvents(run).length, 2);
    });

    test('the same call three times is warned about; the fourth stops the turn without running it', async () => {
      const ws = tempWorkspace('repeat');
      const server = await pool.add(wire.start(() => ({ toolCalls: [appendCall('again')] }), 'repetition'));
      const run = await runAgent(wire.flags(server), ws, 'Append "again" to log.txt');
      assert.equal(run.code, 1);
      assert.deepEqual(logLines(ws), ['again', 'again', 'again'], 'the fourth identical call never ran');
      assert.equal(server.requests.length, 4);
      oneNotice(run, /called run_command with the same arguments 3 times in a row; told it to change approach/);
      oneNotice(run, /called run_command with the same arguments 4 times in a row, even after being told; stopped the turn/);
      // The warning reached the model right after the third result.
      assert.match(lastUserContent(server.requests[3]!), /You have called run_command with the same arguments 3 times in a row/);
      assert.equal(toolResults(server.requests[3]!).length, 3);
      const error = run.events.find((e) => e.type === 'error');
      assert.match(String(error?.message), /^Stopped: the model kept repeating the same run_command call \(4 times in a row\)/);
      assert.equal(turnEnd(run).reason, 'error');
      assert.match(run.stderr, /kept repeating the same run_command call/);
    });

    test('a plain-text answer after tool work is reminded to call task_completion', async () => {
      const ws = tempWorkspace('reminder');
      const server = await pool.add(
        wire.start(
          [
            { toolCalls: [appendCall('entry')] },
            { text: 'The log file has a new entry.' },
            { toolCalls: [{ name: 'task_completion', arguments: { result: 'Appended "entry" to log.txt.' } }] },
          ],
          'task-completion-reminder',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Append "entry" to log.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(logLines(ws), ['entry']);
      oneNotice(run, /^Reminded the model to call task_completion when the task is done \(1\/2\)\.$/);
      assert.match(lastUserContent(server.requests[2]!), /call the task_completion tool with a summary/);
      assert.deepEqual(turnEnd(run), { type: 'turn_end', reason: 'task_completion', result: 'Appended "entry" to log.txt.' });
    });
  });
}
