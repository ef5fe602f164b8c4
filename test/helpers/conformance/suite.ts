// The official MCP conformance suite (@modelcontextprotocol/conformance), pinned, installed on first use into the
// git-ignored e2e cache and run with Node 24 (it needs 22+), against the project's adapter.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_CACHE, NODE24, REPO_ROOT } from '../e2e/paths';
import { runProcess } from '../e2e/proc';

export const CONFORMANCE_DIR = path.join(E2E_CACHE, 'mcp-conformance');

/** The suite's CLI for `version`, installed (npm, pinned) the first time. */
export async function installSuite(version: string): Promise<string> {
  const dir = path.join(CONFORMANCE_DIR, version);
  const entry = path.join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const marker = path.join(dir, '.installed');
  if (existsSync(marker) && existsSync(entry)) return entry;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await runProcess('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `@modelcontextprotocol/conformance@${version}`], {
    timeoutMs: 240_000,
  });
  const installed = JSON.parse(readFileSync(path.join(dir, 'node_modules/@modelcontextprotocol/conformance/package.json'), 'utf8')) as { version: string };
  if (installed.version !== version) throw new Error(`npm installed conformance ${installed.version}, not ${version}`);
  writeFileSync(marker, version); // last, so an interrupted install is redone
  return entry;
}

/** The adapter bundled into one file the suite can run with plain node (no TypeScript loader per scenario). */
export async function bundleAdapter(): Promise<string> {
  const out = path.join(CONFORMANCE_DIR, 'adapter.cjs');
  mkdirSync(CONFORMANCE_DIR, { recursive: true });
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, 'test/helpers/conformance/adapter.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  return out;
}

/** Client scenarios the suite lists, with the protocol versions each applies to. */
export async function listClientScenarios(entry: string): Promise<Array<{ name: string; versions: string[] }>> {
  const { stdout, stderr } = await runProcess(NODE24, [entry, 'list'], { timeoutMs: 60_000 });
  const text = stdout + stderr;
  const section = text.slice(text.indexOf('Client scenarios'));
  const end = section.search(/\n\s*\n\S/);
  return [...(end > 0 ? section.slice(0, end) : section).matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map((m) => ({ name: m[1]!, versions: m[2]!.split(',') }));
}

export interface ScenarioOutcome {
  scenario: string;
  /** The adapter's own exit code (undefined: it never finished). */
  adapterExit: number | undefined;
  /** Checks the suite recorded (its checks.json). */
  checks: Array<{ id: string; status: string; description: string; errorMessage?: string }>;
}

export interface SuiteRun {
  entry: string;
  /** The client command: node and the adapter (the suite appends the server URL). */
  command: string;
  env: NodeJS.ProcessEnv;
  outDir: string;
  specVersion?: string;
}

/**
 * Runs the suite once: `--suite all` (every scenario side by side: one runner process instead of one per
 * scenario) or `--scenario NAME`. Suite mode does not look at the client's exit code, so the adapter records
 * its own (see adapter.ts) and `outcomes` reads both back.
 */
export function runSuite(o: SuiteRun, scenario?: string): Promise<{ exitCode: number; output: string }> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(path.join(o.outDir, 'adapter'), { recursive: true });
  const args = [o.entry, 'client', '--command', o.command, ...(scenario ? ['--scenario', scenario] : ['--suite', 'all']), '-o', o.outDir, ...(o.specVersion ? ['--spec-version', o.specVersion] : [])];
  return new Promise((resolve) => {
    const child = spawn(NODE24, args, { env: { ...o.env, LOCALHARNESS_CONFORMANCE_RESULTS: path.join(o.outDir, 'adapter') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('close', (code) => resolve({ exitCode: code ?? 1, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

/** What the suite and the adapter recorded for each scenario of a run. */
export function outcomes(outDir: string, scenarios: readonly string[]): ScenarioOutcome[] {
  return scenarios.map((scenario) => {
    const parent = path.join(outDir, path.dirname(scenario));
    const stamp = new RegExp(`^${path.basename(scenario).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{4}-\\d{2}-\\d{2}T`);
    const dir = existsSync(parent) ? readdirSync(parent).find((name) => stamp.test(name)) : undefined;
    const checksFile = dir && path.join(parent, dir, 'checks.json');
    const checks = checksFile && existsSync(checksFile) ? (JSON.parse(readFileSync(checksFile, 'utf8')) as ScenarioOutcome['checks']) : [];
    const resultFile = path.join(outDir, 'adapter', `${scenario.replace(/\//g, '_')}.json`);
    const adapterExit = existsSync(resultFile) ? (JSON.parse(readFileSync(resultFile, 'utf8')) as { exitCode: number }).exitCode : undefined;
    return { scenario, adapterExit, checks };
  });
}

/** Why an outcome is not a pass: the adapter failed or never finished, no check succeeded, or one failed or warned. */
export function problemsOf(o: ScenarioOutcome, mayFail: (scenario: string) => boolean): string[] {
  const problems: string[] = [];
  if (o.adapterExit === undefined) problems.push('the client never finished (timed out?)');
  else if (o.adapterExit !== 0 && !mayFail(o.scenario)) problems.push(`the client exited ${o.adapterExit}`);
  if (!o.checks.some((c) => c.status === 'SUCCESS')) problems.push('no check succeeded');
  for (const c of o.checks) if (c.status === 'FAILURE' || c.status === 'WARNING') problems.push(`${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
  return problems;
}
