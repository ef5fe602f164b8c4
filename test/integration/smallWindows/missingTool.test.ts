// Issue 20 (2): a missing tool is handed over, not a reason to stop. The published filesystem MCP server next to the
// built-ins in a 4,096-token window, and a pre-filter so tight (--max-tools 6) that the always-offered tools fill it:
// no move tool is offered. The weak model never thinks of tool_search; it says "I can't do this: none of the offered
// tools provides `move_file`." and stops. The harness offers move_file (added at the end of the tool list) and asks
// it to go on; the five notes get renamed. A model that calls a tool that does not exist (rename_file) gets the
// closest real one the same way.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { ChatBody, FakeServerHandle, ScriptedReply } from '../../helpers/fakeLlm';
import { compressionModel, isCompressionRequest, mcpRenameModel, missingToolText, readRequest } from '../../helpers/weakModels';
import { FILE_TASK, noteName, noteText, renamed } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { LiveCli, killLeftovers, nodeServer, offeredTools, packageBin, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';
import { lastLines, renamedCount } from './smallWindowRuns';

const WINDOW = 4096;
const NOTES = 5;
const FILESYSTEM_BIN = packageBin('@modelcontextprotocol/server-filesystem');

const servers: FakeServerHandle[] = [];
after(async () => {
  killLeftovers();
  await Promise.all(servers.map((s) => s.close()));
});

function notesIn(ws: string): void {
  for (let n = 1; n <= NOTES; n++) writeFileSync(path.join(ws, noteName(n)), noteText(n));
}

/** Calls rename_file (no such tool) until a request offers move_file; then does what mcpRenameModel does. */
function hallucinatingModel(): (request: ChatBody) => ScriptedReply {
  const inner = mcpRenameModel({ missing: 'complain' });
  return (request) => {
    const reply = inner(request);
    const call = reply.toolCalls?.[0];
    if (call?.name === 'move_file' || !reply.text?.includes('move_file')) return reply;
    const note = /note-\d\d\.txt/.exec(readRequest(request).visibleText)?.[0] ?? 'note-01.txt';
    return { toolCalls: [{ name: 'rename_file', arguments: { from: note, to: `renamed-${note}` } }] };
  };
}

for (const wire of WIRE_FORMATS) {
  describe(`a tool the model lacks, over ${wire.name}`, () => {
    test(`"none of the offered tools provides move_file" hands move_file over; ${NOTES} notes renamed without tool_search`, async (t) => {
      const { root, ws } = tempWorkspace(`missing-${wire.name}`);
      notesIn(ws);
      const config = writeMcpConfig(root, { files: nodeServer(FILESYSTEM_BIN, ['${workspaceFolder}']) });
      const windowed = new WindowedScript({ window: WINDOW });
      const agent = mcpRenameModel({ missing: 'complain' });
      const server = await wire.start(windowed.script(agent, compressionModel('follows')), `missing tool (${wire.name})`);
      servers.push(server);
      const args = [...wire.flags(server), '--num-ctx', String(WINDOW), '--workspace', ws, '--mcp-config', config, '--approve', 'all', '--max-tools', '6', '--max-rounds', '30', '--json', FILE_TASK];
      const cli = new LiveCli(['run', ...args], ws);
      const { code } = await cli.finished(60_000);
      const agentRequests = server.requests.filter((r) => !isCompressionRequest(r as ChatBody));
      const report = `exit ${code}; ${renamedCount(ws, NOTES)}/${NOTES} renamed; files: ${readdirSync(ws).join(', ')}`;
      t.diagnostic(report);

      assert.equal(code, 0, `${report}\n${lastLines(cli.stderr)}`);
      for (let n = 1; n <= NOTES; n++) assert.ok(readdirSync(ws).includes(renamed(n)), `${renamed(n)}: ${report}`);
      assert.deepEqual(windowed.overWindow, [], 'no request over the window');
      // It really lacked the tool first, said so, and never searched.
      const said = agentRequests.some((r) => readRequest(r as ChatBody).messages.some((m) => m.role === 'assistant' && m.content === missingToolText('move_file')));
      assert.ok(said, 'the model said it lacked move_file');
      assert.ok(!cli.events.some((e) => e.type === 'tool_call' && e.name === 'tool_search'), 'the model never called tool_search');
      assert.ok(cli.events.some((e) => e.type === 'notice' && /lacks `move_file`; offered `move_file`/.test(String(e.message))), 'the notice says what happened');
      const first = offeredTools(agentRequests[0] as Record<string, unknown>).map((d) => d.name);
      const last = offeredTools(agentRequests.at(-1) as Record<string, unknown>).map((d) => d.name);
      assert.ok(!first.includes('move_file'), `move_file was not offered at first: ${first.join(', ')}`);
      assert.deepEqual(last.slice(0, first.length), first, 'the tool list only grew at its end');
      assert.ok(last.includes('move_file'));
      // Not reported as done before the work was.
      const end = cli.events.find((e) => e.type === 'turn_end');
      assert.match(String(end?.reason), /task_completion|completed/);
      assert.equal(renamedCount(ws, NOTES), NOTES);
    });

    test('a call to a tool that does not exist (rename_file) gets the closest real one offered, and the task finishes', async () => {
      const { root, ws } = tempWorkspace(`hallucinated-${wire.name}`);
      notesIn(ws);
      const config = writeMcpConfig(root, { files: nodeServer(FILESYSTEM_BIN, ['${workspaceFolder}']) });
      const windowed = new WindowedScript({ window: WINDOW });
      const server = await wire.start(windowed.script(hallucinatingModel(), compressionModel('follows')), `hallucinated tool (${wire.name})`);
      servers.push(server);
      const args = [...wire.flags(server), '--num-ctx', String(WINDOW), '--workspace', ws, '--mcp-config', config, '--approve', 'all', '--max-tools', '6', '--max-rounds', '40', '--json', FILE_TASK];
      const cli = new LiveCli(['run', ...args], ws);
      const { code } = await cli.finished(60_000);
      assert.equal(code, 0, lastLines(cli.stderr));
      assert.equal(renamedCount(ws, NOTES), NOTES, readdirSync(ws).join(', '));
      const notices = cli.events.filter((e) => e.type === 'notice').map((e) => String(e.message));
      assert.ok(cli.events.some((e) => e.type === 'tool_result' && e.name === 'rename_file' && !e.ok), 'the made-up call failed as a tool result');
      assert.ok(notices.some((m) => /`rename_file`, which does not exist; offered `(files__)?move_file`/.test(m)), notices.join('\n'));
    });
  });
}
