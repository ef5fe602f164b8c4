// Runs the whole suite with node's built-in test runner (one runner for the repo).
// Usage: node scripts/run-tests.mjs [unit|integration|e2e ...] [--grep substring] [--record-durations]
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const grepIndex = args.indexOf('--grep');
const grep = grepIndex >= 0 ? args[grepIndex + 1] : undefined;
const recordDurations = args.includes('--record-durations');
const suites = args.filter((a, i) => !a.startsWith('--') && (grepIndex < 0 || i !== grepIndex + 1));
const selected = suites.length ? suites : ['unit', 'integration', 'e2e'];
/**
 * How many files (or groups of files) of each suite run at once (LOCALHARNESS_<SUITE>_CONCURRENCY overrides).
 * E2e files each start a code-server and a Chromium and spend about half their time waiting for them to boot:
 * two at a time on 2 cores (all 70 e2e tests passed so at a load of 10).
 */
const concurrency = (suite, fallback) => Number(process.env[`LOCALHARNESS_${suite.toUpperCase()}_CONCURRENCY`] ?? fallback);
const CONCURRENCY = { unit: concurrency('unit', 2), integration: concurrency('integration', 2), e2e: concurrency('e2e', 2) };
/** Seconds each file took in a recent run: files start longest first, so the runner's slots end together. */
const DURATIONS_FILE = 'scripts/test-durations.json';
/**
 * Unit and integration files run several to a process (each file's tests and hooks in a suite named by its path,
 * the files one after another): starting a process and loading what a file imports cost 0.9 (unit) to 1.4
 * (integration) CPU-seconds a file, more than most files' tests. Enough groups that the runner's slots still
 * end together.
 */
const GROUPS = { unit: 6, integration: 16 };
/**
 * E2e files that run alone, after the others, because they assert timings that a workbench booting beside them
 * would disturb: reconnection to ±200 ms (the conformance suite's sse-retry), activate() under 500 ms (chat),
 * frame gaps and first words on a long conversation.
 */
const SOLO = new Set(['test/e2e/mcpConformance.test.ts', 'test/e2e/chat.test.ts', 'test/e2e/longConversation.test.ts']);
/** Files that need a process of their own: they check what a fresh process loaded, measure its event loop, or set process.env at load. */
const OWN_PROCESS = new Set([
  'test/unit/persistence/sqlJsLoader.test.ts',
  'test/unit/mcp/lazySdk.test.ts',
  'test/integration/tools/eventLoop.test.ts',
  'test/integration/vscode/commandEnv.test.ts',
]);

function walk(dir) {
  let out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(walk(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

function readJson(file, fallback) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return fallback;
  }
}

/** A file's seconds in the last recorded run; a file not timed yet counts as the median of the others. */
function estimator(files, durations) {
  const known = files.map((f) => durations[f]).filter((d) => typeof d === 'number').sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  return (f) => durations[f] ?? median;
}

/** Longest first, ties by name. */
function longestFirst(files, durations) {
  const seconds = estimator(files, durations);
  return [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
}

/**
 * The files packed into GROUPS[suite] generated entry files of about equal duration (each entry's estimate is
 * added to `durations`), plus the OWN_PROCESS files. Unit entries require their files (the suite loads
 * TypeScript through the require hook), integration entries import them.
 */
function groupFiles(suite, files, durations, dir) {
  const estimate = estimator(files, durations);
  const groups = Array.from({ length: GROUPS[suite] }, () => ({ files: [], seconds: 0 }));
  for (const file of longestFirst(files.filter((f) => !OWN_PROCESS.has(f)), durations)) {
    const group = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    group.files.push(file);
    group.seconds += estimate(file);
  }
  const load = suite === 'unit' ? (f) => `() => { require(${JSON.stringify(resolve(f))}); }` : (f) => `async () => { await import(${JSON.stringify(pathToFileURL(resolve(f)).href)}); }`;
  const header = suite === 'unit' ? "const { describe } = require('node:test');" : "import { describe } from 'node:test';";
  const entries = groups
    .filter((g) => g.files.length)
    .map((group, i) => {
      const entry = join(dir, `${suite}-group-${i + 1}.${suite === 'unit' ? 'cjs' : 'mjs'}`);
      const lines = group.files.sort().map((f) => `describe(${JSON.stringify(f)}, ${load(f)});`);
      writeFileSync(entry, ['// Generated by scripts/run-tests.mjs.', header, ...lines, ''].join('\n'));
      durations[entry] = group.seconds;
      return entry;
    });
  return [...entries, ...files.filter((f) => OWN_PROCESS.has(f))];
}

const since = (start) => `${((Date.now() - start) / 1000).toFixed(1)} s`;
const phases = [];

/** Runs a command to its end; output to the terminal, or to a log file (background work). */
function run(command, commandArgs, { env = process.env, log } = {}) {
  return new Promise((resolve) => {
    const out = log ? openSync(log, 'a') : 'inherit';
    const child = spawn(command, commandArgs, { stdio: ['ignore', out, out], env });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** A step that must pass: it is timed, and the run stops when it fails (printing its log, when it has one). */
async function step(name, promise, log) {
  const start = Date.now();
  const code = await promise;
  phases.push(`${name} ${since(start)}`);
  if (code === 0) return;
  if (log && existsSync(log)) process.stderr.write(readFileSync(log, 'utf8').slice(-20_000));
  console.error(`${name} failed`);
  process.exit(1);
}

const runDir = mkdtempSync(join(tmpdir(), 'lh-run-'));
const configHome = mkdtempSync(join(tmpdir(), 'lh-config-'));
// The installs (bubblewrap, then Chromium, Node 24 and code-server on first use) run in the background, niced,
// while the unit tests (which need none of them) and the integration tests (which need only bubblewrap) run:
// on a fresh machine they take minutes, mostly downloading.
const setupLog = join(runDir, 'setup.log');
const setupStart = Date.now();
const filesOf = Object.fromEntries(selected.map((suite) => [suite, walk(join('test', suite)).sort().filter((f) => !grep || f.includes(grep))]));
const running = selected.filter((suite) => filesOf[suite].length);
const sandboxReady = running.some((s) => s !== 'unit') ? run('nice', ['-n', '10', 'bash', 'scripts/setup-sandbox.sh'], { log: setupLog }) : null;
const e2eReady = running.includes('e2e')
  ? sandboxReady.then((code) => (code === 0 ? run('nice', ['-n', '10', 'bash', 'scripts/setup-e2e.sh'], { log: setupLog }) : code))
  : null;
e2eReady?.then(() => phases.push(`e2e installs (in the background) ${since(setupStart)}`));
if (sandboxReady) console.log(`[run-tests] installing what the tests need in the background (log: ${setupLog})`);

/** Runs one batch of a suite's files in node's test runner; adds to the totals; returns [file, seconds] pairs. */
async function runBatch(suite, batch, env) {
  // Unit files load TypeScript through tsx's in-thread require hook: its ESM loader runs in a separate thread and
  // answers every import by message, which made starting each of the ~150 unit files cost ~0.5 s more. The
  // other suites keep the ESM loader (some of their files import TypeScript with import()).
  const loader = suite === 'unit' ? ['--require', 'tsx/cjs'] : ['--import', 'tsx'];
  const resultsFile = join(runDir, `${batch.name}.json`);
  const start = Date.now();
  const code = await run(
    process.execPath,
    [
      ...loader,
      '--test',
      `--test-concurrency=${batch.concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/file-times-reporter.mjs',
      `--test-reporter-destination=${resultsFile}`,
      ...batch.files,
    ],
    { env },
  );
  phases.push(`${batch.name} ${since(start)}`);
  const results = readJson(resultsFile, { files: {}, summary: {} });
  if (code !== 0 || results.summary.pass === undefined) failed = true;
  for (const key of Object.keys(totals)) totals[key] += results.summary[key] ?? 0;
  return Object.entries(results.files);
}

let failed = false;
const totals = { pass: 0, fail: 0, cancelled: 0, skipped: 0 };
const durations = readJson(DURATIONS_FILE, {});
for (const suite of running) {
  const files = filesOf[suite];
  const estimates = { ...durations };
  const runFiles = longestFirst(GROUPS[suite] ? groupFiles(suite, files, estimates, runDir) : files, estimates);
  // The CLI keeps MCP sign-ins and config trust under XDG_CONFIG_HOME: tests never write the real ~/.config.
  const env = { ...process.env, LOCALHARNESS_TEST: '1', XDG_CONFIG_HOME: configHome };
  // run_command runs in bubblewrap by default: the integration and e2e tests need it (unit tests do not).
  if (suite !== 'unit') await step('sandbox setup', sandboxReady, setupLog);
  if (suite === 'e2e') {
    await step('e2e setup', e2eReady, setupLog);
    // `npm test` has just built; otherwise build once here, so each e2e file packages what is built.
    if (process.env.npm_lifecycle_event !== 'test') await step('build', run('npm', ['run', 'build']));
    env.LOCALHARNESS_E2E_BUILT = '1';
    // Packaged and installed once, before files that run together would each do it into the same folder.
    await step('e2e package and install', run(process.execPath, ['--import', 'tsx', 'test/helpers/e2e/prepare.ts'], { env }));
  }
  // Files that must not share the machine with another e2e file run after the others, alone.
  const batches = [
    { name: suite, files: runFiles.filter((f) => !SOLO.has(f)), concurrency: CONCURRENCY[suite] ?? 2 },
    { name: `${suite}-alone`, files: runFiles.filter((f) => SOLO.has(f)), concurrency: 1 },
  ].filter((b) => b.files.length);
  for (const batch of batches) {
    const count = batch.name === suite ? files.filter((f) => !SOLO.has(f)).length : batch.files.length;
    const processes = count === batch.files.length ? '' : ` in ${batch.files.length} processes`;
    console.log(`\n=== ${batch.name}: ${count} files${processes}, ${batch.concurrency} at a time ===`);
    const times = await runBatch(suite, batch, env);
    const slowest = [...times].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`\nslowest ${batch.name} files: ${slowest.map(([f, s]) => `${f.replace(/^test\//, '')} ${s.toFixed(1)} s`).join(', ')}`);
    for (const [file, s] of times) durations[file] = s;
  }
}
if (recordDurations) {
  const sorted = Object.fromEntries(Object.entries(durations).filter(([f]) => existsSync(f)).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
}
console.log(`\ntimes: ${phases.join(', ')} (setup log: ${setupLog})`);
// One plain closing line for the whole suite (CI reads it).
// A cancelled test did not pass (a file whose event loop emptied early cancels the rest of its group): it counts as failed.
console.log(`\n${totals.pass} passed, ${totals.fail + totals.cancelled} failed, ${totals.skipped} skipped`);
process.exit(failed || totals.fail + totals.cancelled > 0 ? 1 : 0);
