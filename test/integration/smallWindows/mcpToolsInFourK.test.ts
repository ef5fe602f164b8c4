// Small windows for real (b): the published filesystem MCP server configured next to the built-in tools
// (their definitions together are near the whole 4,096-token window), and a five-note rename task. The tool
// pre-filter offers at most --max-tools (default 15) tools per request, chosen by relevance, and says so in
// `tools_offered` events; the model uses whatever it is offered (built-in, `files__…`, or tool_search).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WIRE_FORMATS } from '../../helpers/cli/wire';
import type { FakeServerHandle } from '../../helpers/fakeLlm';
import { compressionModel, mcpRenameModel } from '../../helpers/weakModels';
import { FILE_TASK, noteName, noteText } from '../../helpers/tasks/fileTask';
import { WindowedScript } from '../../helpers/fakeLlm/windowedScript';
import { LiveCli, killLeftovers, nodeServer, offeredTools, packageBin, tempWorkspace, writeMcpConfig } from '../../helpers/mcp/mcpCliHelpers';
import { assertAllRenamed, failedMoves, lastLines, renamedCount } from './smallWindowRuns';

const WINDOW = 4096;
const NOTES = 5;
const DEFAULT_MAX_TOOLS = 15;
const FILESYSTEM_BIN = packageBin('@modelcontextprotocol/server-filesystem');

const namesOffered = (request: Record<string, unknown>) => offeredTools(request).map((t) => t.name);

const servers: FakeServerHandle[] = [];
after(async () => {
  killLeftovers();
  await Promise.all(servers.map((s) => s.close()));
});

for (const wire of WIRE_FORMATS) {
  describe(`filesystem MCP server + built-ins in a ${WINDOW}-token window over ${wire.name}`, () => {
    test(`${NOTES} notes renamed; each request offers a filtered set of tools and stays in the window`, async (t) => {
      const { root, ws } = tempWorkspace(`small-${wire.name}`);
      for (let n = 1; n <= NOTES; n++) writeFileSync(path.join(ws, noteName(n)), noteText(n));
      const config = writeMcpConfig(root, { files: nodeServer(FILESYSTEM_BIN, ['${workspaceFolder}']) });
      const windowed = new WindowedScript({ window: WINDOW });
      const agent = mcpRenameModel();
      const server = await wire.start(windowed.script(agent, compressionModel('follows')), `mcp 4k (${wire.name})`);
      servers.push(server);

      const args = [...wire.flags(server), '--num-ctx', String(WINDOW), '--workspace', ws, '--mcp-config', config, '--approve', 'all', '--max-rounds', '30', '--json', FILE_TASK];
      const cli = new LiveCli(['run', ...args], ws);
      const { code } = await cli.finished(60_000);

      const offeredEvents = cli.events.filter((e) => e.type === 'tools_offered');
      const agentRequests = server.requests.filter((r) => !namesOffered(r).includes('get_compression_metadata'));
      const perRequest = agentRequests.map((r) => namesOffered(r).length);
      const used = cli.events.filter((e) => e.type === 'tool_call').map((e) => String(e.name));
      const report =
        `${agentRequests.length} agent requests offering ${perRequest.join('/')} tools; largest ${windowed.largest} of ${WINDOW} proxy tokens; ` +
        `${offeredEvents.length} tools_offered events (${offeredEvents.map((e) => `${(e.offered as string[]).length}/${e.total}, ${e.tokensOffered}/${e.tokensAll} tokens, ${e.ranking}`).slice(0, 3).join('; ')}); ` +
        `tools used: ${[...new Set(used)].join(', ')}; ${renamedCount(ws, NOTES)}/${NOTES} renamed; exit ${code}`;
      t.diagnostic(report);

      assert.deepEqual(windowed.overWindow, [], `requests over the window: ${report}`);
      assert.equal(code, 0, `${report}\n${lastLines(cli.stderr)}`);
      assertAllRenamed(ws, NOTES, report);
      assert.deepEqual(agent.failures, [], report);
      assert.deepEqual(failedMoves({ code, stdout: cli.stdout, stderr: cli.stderr, events: cli.events }), []);

      // The pre-filter did its job, and said so.
      const filtered = offeredEvents.filter((e) => (e.offered as string[]).length < Number(e.total));
      assert.ok(filtered.length >= 1, `a tools_offered event with fewer tools than there are: ${report}`);
      for (const e of offeredEvents) {
        const offered = e.offered as string[];
        assert.ok(offered.length <= DEFAULT_MAX_TOOLS, `at most ${DEFAULT_MAX_TOOLS} offered: ${JSON.stringify(e)}`);
        assert.ok(Number(e.tokensOffered) < Number(e.tokensAll), JSON.stringify(e));
        assert.match(String(e.ranking), /keyword/i, 'no --embed-model: keyword ranking');
      }
      // What the server received agrees: no request carried more than the cap.
      for (const [i, n] of perRequest.entries()) assert.ok(n <= DEFAULT_MAX_TOOLS, `agent request ${i + 1} offered ${n} tools`);
    });
  });
}
