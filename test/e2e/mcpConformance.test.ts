// The official MCP conformance suite against the CLI: every client scenario of 0.1.16 (the newest release), and
// every scenario of the newest pre-release that applies to the protocol version the client speaks (2025-11-25;
// its other scenarios target the next, unreleased protocol). The suite starts its mock server (and authorization
// and identity servers) per scenario and runs our adapter, which drives `localharness mcp list` or `run` with a
// scripted model, signs in through a browser stand-in and answers elicitation on a scripted terminal.
// Lives with the e2e files because it needs the e2e toolchain's Node 24 (the suite needs Node 22+).
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { CLI } from '../helpers/cli/runCli';
import { mayFail } from '../helpers/conformance/scenarioConfig';
import { bundleAdapter, installSuite, listClientScenarios, outcomes, problemsOf, runSuite, type ScenarioOutcome, type SuiteRun } from '../helpers/conformance/suite';
import { REPO_ROOT } from '../helpers/e2e/paths';
import { browserCommand } from '../helpers/mcpAuth/browserCommand';

const RELEASE = '0.1.16';
const PRE_RELEASE = '0.2.0-alpha.12';
/** Measures reconnection timing to ±200 ms: run on its own, not beside the other scenarios. */
const TIMED = 'sse-retry';
const OUT = path.join(REPO_ROOT, 'test-artifacts/conformance');

let command: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  const adapter = await bundleAdapter();
  // The suite splits the command at spaces.
  for (const p of [process.execPath, adapter]) assert.ok(!/\s/.test(p), `no spaces in ${p}`);
  command = `${process.execPath} ${adapter}`;
  env = { ...process.env, LOCALHARNESS_CLI: CLI, LOCALHARNESS_BROWSER: browserCommand() };
}, { timeout: 60_000 });

/** Every scenario side by side in one suite run, then the timed one alone; both recorded per scenario. */
async function runAll(version: string, scenarios: readonly string[], specVersion?: string): Promise<ScenarioOutcome[]> {
  const run = (dir: string): SuiteRun => ({ entry: '', command, env, outDir: path.join(OUT, version, dir), ...(specVersion && { specVersion }) });
  const entry = await installSuite(version);
  const together = { ...run('all'), entry };
  const alone = { ...run('timed'), entry };
  await runSuite(together);
  if (scenarios.includes(TIMED)) await runSuite(alone, TIMED);
  return scenarios.map((s) => (s === TIMED ? outcomes(alone.outDir, [s])[0]! : outcomes(together.outDir, [s])[0]!));
}

function report(results: readonly ScenarioOutcome[], diagnostic: (m: string) => void): void {
  for (const o of results) diagnostic(`${o.scenario}: client exit ${o.adapterExit ?? 'none'}, ${o.checks.filter((c) => c.status === 'SUCCESS').length} of ${o.checks.length} checks succeeded (the rest are informational)`);
  const failed = results.map((o) => ({ o, problems: problemsOf(o, mayFail) })).filter((f) => f.problems.length);
  assert.deepEqual(
    failed.map((f) => f.o.scenario),
    [],
    `${failed.map((f) => `${f.o.scenario}:\n  ${f.problems.join('\n  ')}`).join('\n')}\n(the suite's logs and the client's output are in ${OUT})`,
  );
}

describe('the MCP conformance suite, client scenarios', { timeout: 600_000 }, () => {
  test(`every client scenario of ${RELEASE}`, async (t) => {
    const scenarios = (await listClientScenarios(await installSuite(RELEASE))).map((s) => s.name);
    // These are the ones issue 23 named, so a listing that parsed to nothing cannot pass.
    for (const name of ['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults', 'auth/metadata-default', 'auth/scope-step-up', 'auth/client-credentials-basic', 'auth/cross-app-access-complete-flow']) {
      assert.ok(scenarios.includes(name), `the suite lists ${name}: ${scenarios.join(', ')}`);
    }
    assert.equal(scenarios.length, 26, scenarios.join(', '));
    report(await runAll(RELEASE, scenarios), (m) => t.diagnostic(m));
  });

  test(`every client scenario of ${PRE_RELEASE} for protocol 2025-11-25`, async (t) => {
    const scenarios = (await listClientScenarios(await installSuite(PRE_RELEASE))).filter((s) => s.versions.includes('2025-11-25')).map((s) => s.name);
    assert.ok(scenarios.includes('json-schema-2020-12-preservation') && scenarios.includes('auth/scope-step-up'), scenarios.join(', '));
    report(await runAll(PRE_RELEASE, scenarios, '2025-11-25'), (m) => t.diagnostic(m));
  });
});
