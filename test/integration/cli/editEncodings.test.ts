// Through the real CLI on both wire formats: a model edits a Latin-1 main.c and a CRLF file the way the issue
// reported them broken (U+FFFD for every \xfc; LF-only lines in a CRLF file); every untouched byte survives, and
// a character Latin-1 lacks is refused with the file left as it was.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import { ServerPool, runAgent, tempWorkspace, toolResultEvents, turnEnd } from '../weakModels/weakCli';

const MAIN_C = Buffer.from('/* J\xfcrgen M\xfcller */\n#include <stdio.h>\n\nint main(void) {\n  /* TODO */\n  return 0;\n}\n', 'latin1');

for (const wire of WIRE_FORMATS) {
  describe(`edits keep untouched bytes over ${wire.name}`, () => {
    const pool = new ServerPool();
    after(() => pool.closeAll());

    test('Latin-1 main.c: TODO replaced, every other byte kept; an arrow the encoding lacks is refused', async () => {
      const ws = tempWorkspace('latin1');
      writeFileSync(path.join(ws, 'main.c'), MAIN_C);
      const server = await pool.add(
        wire.start(
          [
            { toolCalls: [{ name: 'read_file', arguments: { path: 'main.c' } }] },
            { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.c', old_text: '/* TODO */', new_text: 'puts("a \u2192 b");' } }] },
            { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.c', old_text: '/* TODO */', new_text: 'puts("Gr\u00fc\u00dfe");' } }] },
            { toolCalls: [{ name: 'task_completion', arguments: { result: 'main.c now greets instead of the TODO.' } }] },
          ],
          'latin1',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Replace the TODO in main.c with a greeting');
      assert.equal(run.code, 0, run.stderr);
      const results = toolResultEvents(run);
      assert.match(results[0]!.content, /J\u00fcrgen M\u00fcller/, 'the model reads the decoded name');
      assert.equal(results[1]!.ok, false);
      assert.match(results[1]!.content, /Windows-1252 \(Latin-1\), which cannot hold "\u2192"/);
      assert.equal(results[2]!.ok, true, results[2]!.content);
      const expected = Buffer.from(MAIN_C.toString('latin1').replace('/* TODO */', 'puts("Gr\xfc\xdfe");'), 'latin1');
      assert.deepEqual(readFileSync(path.join(ws, 'main.c')), expected);
      assert.equal(turnEnd(run).reason, 'task_completion');
    });

    test('a multi-line edit in a CRLF file inserts CRLF lines', async () => {
      const ws = tempWorkspace('crlf');
      writeFileSync(path.join(ws, 'list.txt'), 'one\r\ntwo\r\nthree\r\n');
      const server = await pool.add(
        wire.start(
          [
            { toolCalls: [{ name: 'edit_file', arguments: { path: 'list.txt', old_text: 'two', new_text: 'two\ntwo and a half' } }] },
            { toolCalls: [{ name: 'task_completion', arguments: { result: 'Inserted "two and a half" after two.' } }] },
          ],
          'crlf',
        ),
      );
      const run = await runAgent(wire.flags(server), ws, 'Add "two and a half" after two in list.txt');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(ws, 'list.txt'), 'latin1'), 'one\r\ntwo\r\ntwo and a half\r\nthree\r\n');
    });
  });
}
