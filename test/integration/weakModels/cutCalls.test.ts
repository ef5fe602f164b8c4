// Issue 27, "cut calls are never run and never the answer": a whole-file rewrite longer than the server's output
// limit is cut (`length`) on both wire formats — as native call deltas, as JSON text, and as a `<tool>` block in
// the text protocol. The cut call is not run (the file stays intact), the model is told to split the work, the
// retry asks for a larger limit with the same prompt bytes before the note, and the task then completes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { longWriteModel, SERVER_DEFAULT_LIMIT, type CutForm } from '../../helpers/weakModels/longWriteModel';
import { lastContent, messagesOf, noticesOf, runTurnOn, shownText, tempRoot, WIRES } from './inProcessTurn';

const ORIGINAL = Array.from({ length: 60 }, (_, i) => `function step${i}() { return ${i} * 2; } // step ${i} of the pipeline`).join('\n') + '\n';
const NEW_LINE = "'use strict';";

for (const wire of WIRES) {
  describe(`a call cut at the output limit over ${wire}`, () => {
    // Ollama never streams a cut native call: its parser leaves the unfinished call in the content as text.
    const forms: CutForm[] = wire === 'openai' ? ['native', 'json', 'tool'] : ['json', 'tool'];
    for (const form of forms) {
      test(`${form === 'native' ? 'native call deltas' : form === 'json' ? 'JSON text' : '<tool> text (text protocol)'}: not run, the model is told, the limit is raised, the task completes`, async () => {
        const ws = tempRoot(`cut-${wire}-${form}`);
        writeFileSync(path.join(ws, 'app.js'), ORIGINAL);
        const model = longWriteModel(form, { file: 'app.js', original: ORIGINAL, newLine: NEW_LINE });
        const run = await runTurnOn(wire, model, ws, `Add ${NEW_LINE} at the top of app.js`, form === 'tool' ? { toolProtocol: 'xml' } : {});

        assert.equal(run.outcome.reason, 'task_completion', JSON.stringify(run.outcome));
        assert.equal(readFileSync(path.join(ws, 'app.js'), 'utf8'), `${NEW_LINE}\n${ORIGINAL}`);
        // The cut write_file never ran: the only tools that ran are the edit and the report.
        const ran = run.events.flatMap((e) => (e.type === 'tool_result' ? [e.name] : []));
        assert.deepEqual(ran, ['edit_file', 'task_completion']);

        const requests = run.server.requests;
        assert.equal(requests.length, 3);
        const note = lastContent(requests[1]!);
        assert.match(note, /cut off at the output limit while you were writing a tool call, so the call was not run/);
        assert.match(note, /Split the work into smaller edits/);
        // The first request left the limit to the server; the retry asks for more, and nothing else of the prompt moved.
        assert.equal(model.limits[0], undefined);
        assert.ok((model.limits[1] ?? 0) >= 4096 && model.limits[1]! > SERVER_DEFAULT_LIMIT, `raised limit: ${model.limits[1]}`);
        const before = messagesOf(requests[0]!);
        assert.deepEqual(messagesOf(requests[1]!).slice(0, before.length), before, 'the prompt before the new messages is byte-identical');
        assert.deepEqual(requests[1]!.tools, requests[0]!.tools);

        const notice = noticesOf(run.events).find((n) => /hit the output limit/.test(n));
        assert.match(notice ?? '', /in the middle of a tool call.*the call was not run.*raised the output limit to \d+ tokens \(1\/3\)/);
        assert.doesNotMatch(shownText(run.events), /write_file|"content"|function step/);
      });
    }

    test('a plain answer cut at the output limit is not the answer: the model continues with a larger limit', async () => {
      const ws = tempRoot(`cut-text-${wire}`);
      const run = await runTurnOn(
        wire,
        (_request, index) =>
          index === 0
            ? { text: 'The pipeline has sixty steps and each of them', finishReason: 'length' }
            : { text: 'app.js doubles its input in sixty steps.' },
        ws,
        'What does app.js do?',
      );
      assert.equal(run.outcome.reason, 'completed');
      assert.equal(run.outcome.result, 'app.js doubles its input in sixty steps.');
      assert.match(lastContent(run.server.requests[1]!), /cut off at the output limit before you finished\. Continue/);
      assert.ok(noticesOf(run.events).some((n) => /hit the output limit( \(\d+ tokens\))? before it finished; asked the model to continue/.test(n)));
    });

    test('replies that keep hitting the limit end the turn as an error, never as completed', async () => {
      const ws = tempRoot(`cut-loop-${wire}`);
      const run = await runTurnOn(wire, () => ({ text: 'Still writing and', finishReason: 'length' }), ws, 'Explain everything.');
      assert.equal(run.outcome.reason, 'error');
      assert.match(run.outcome.error ?? '', /kept hitting the output limit/);
      assert.equal(run.server.requests.length, 4);
    });
  });
}
