// Issue 30: every model family's tool-call text is a call, never the answer. The 5-note rename task over both
// wire formats with a model that prints its calls in its family's syntax (the server did not parse them): on the
// first call only, on the last reply only (two calls), or on every call. The task completes without a correction
// round and the user never sees call text; text that looks like a call but cannot be read gets one correction.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileTaskModel, fileTaskWorkspace, noteName, renamed, FILE_TASK } from '../../helpers/tasks/fileTask';
import { CALL_TEXT_SYNTAXES, printsCallsAs, type TextCallHabit } from '../../helpers/weakModels/callText';
import type { ChatBody, ScriptedReply } from '../../helpers/fakeLlm';
import { lastContent, noticesOf, runTurnOn, shownText, WIRES } from './inProcessTurn';

const NOTES = 5;
/** list + a read and a move per note (the last move with task_completion). */
const ROUNDS = 1 + NOTES * 2;
const CALL_TEXT = /TOOL_CALLS|<\/?tool|<\/?function|<\/?parameter|<\||\[ARGS\]|"name"|"arguments"|note-\d\d\.txt|list_directory|move_file|read_file|task_completion/;

function assertRenamed(ws: string): void {
  for (let n = 1; n <= NOTES; n++) {
    assert.ok(existsSync(path.join(ws, renamed(n))), `${renamed(n)} exists`);
    assert.ok(!existsSync(path.join(ws, noteName(n))), `${noteName(n)} was moved`);
  }
}

for (const wire of WIRES) {
  describe(`family call syntaxes over ${wire}`, () => {
    for (const syntax of CALL_TEXT_SYNTAXES) {
      for (const habit of ['first', 'last', 'every'] as TextCallHabit[]) {
        test(`${syntax}, ${habit === 'first' ? 'once (one call)' : habit === 'last' ? 'once (two calls in a reply)' : 'on every call'}: the 5-note rename completes`, async () => {
          const ws = fileTaskWorkspace(NOTES, 400);
          const task = fileTaskModel();
          const model = printsCallsAs((request: ChatBody, index: number) => task(request, index), syntax, habit, (r: ScriptedReply) => (r.toolCalls?.length ?? 0) > 1);
          const run = await runTurnOn(wire, model, ws, FILE_TASK);
          assert.deepEqual(task.failures, []);
          assert.equal(run.outcome.reason, 'task_completion', JSON.stringify(run.outcome));
          assertRenamed(ws);
          assert.equal(run.server.requests.length, ROUNDS, 'no correction round');
          assert.equal(model.counts.text, habit === 'every' ? ROUNDS : 1);
          const notices = noticesOf(run.events);
          assert.equal(notices.filter((n) => /could not be read/.test(n)).length, 0, notices.join('\n'));
          assert.equal(notices.filter((n) => /wrote a tool call as text/.test(n)).length, model.counts.text, notices.join('\n'));
          // The user saw the sentence before each printed call, never the call.
          const shown = shownText(run.events);
          assert.doesNotMatch(shown, CALL_TEXT, shown);
          assert.equal(shown.replace(/\s+/g, ' ').trim(), Array(model.counts.text).fill('On it.').join(' '));
          // The history holds real calls, so the next request shows the model its call and the result the normal way.
          const calls = run.history.filter((m) => m.role === 'assistant').flatMap((m) => (m.toolCalls ?? []).map((c) => c.name));
          assert.equal(calls.length, ROUNDS + 1);
        });
      }
    }

    for (const syntax of CALL_TEXT_SYNTAXES) {
      test(`${syntax} in the text protocol (xml mode), on every call: read like a <tool> block, the rename completes`, async () => {
        const ws = fileTaskWorkspace(NOTES, 400);
        const task = fileTaskModel();
        const model = printsCallsAs((request: ChatBody, index: number) => task(request, index), syntax, 'every', () => false);
        const run = await runTurnOn(wire, model, ws, FILE_TASK, { toolProtocol: 'xml' });
        assert.deepEqual(task.failures, []);
        assert.equal(run.outcome.reason, 'task_completion', JSON.stringify(run.outcome));
        assertRenamed(ws);
        assert.equal(run.server.requests.length, ROUNDS, 'no correction round');
        assert.ok(run.server.requests.every((r) => !('tools' in r)), 'the text protocol offers no native tools');
        assert.doesNotMatch(shownText(run.events), CALL_TEXT);
      });
    }

    for (const [syntax, broken] of [
      ['devstral', '[TOOL_CALLS]list_directory[ARGS]{"path": .}'],
      ['harmony', '<|channel|>commentary to=functions.list_directory <|constrain|>json<|message|>{path: "."}<|call|>'],
      ['qwen3-coder', '<tool_call>\n<function=list_directory>\n<parameter=path>\n.\n</parameter>\n'],
      ['json', '{"name": "list_directory", "arguments": {"path": "."'],
    ] as const) {
      test(`unreadable ${syntax} call text gets exactly one correction naming a native call, then the task completes`, async () => {
        const ws = fileTaskWorkspace(NOTES, 400);
        const task = fileTaskModel();
        let corrected = false;
        const model = (request: ChatBody, index: number): ScriptedReply | undefined => {
          const last = request.messages?.at(-1);
          if (!corrected && typeof last?.content === 'string' && /could not be run/.test(last.content)) corrected = true;
          return corrected ? task(request, index) : { text: `Listing.\n${broken}` };
        };
        const run = await runTurnOn(wire, model, ws, FILE_TASK);
        assert.equal(run.outcome.reason, 'task_completion');
        assertRenamed(ws);
        assert.equal(run.server.requests.length, ROUNDS + 1, 'one correction round');
        const corrections = noticesOf(run.events).filter((n) => /could not be read/.test(n));
        assert.equal(corrections.length, 1, corrections.join('\n'));
        const nudge = lastContent(run.server.requests[1]!);
        assert.match(nudge, /^Your tool call could not be run:\n- /);
        assert.match(nudge, /Make each call a native tool call/);
        assert.doesNotMatch(shownText(run.events), CALL_TEXT);
      });
    }
  });
}
