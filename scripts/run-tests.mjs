// Runs the whole suite with node's built-in test runner (one runner for the repo).
// Usage: node scripts/run-tests.mjs [unit|integration|e2e ...] [--grep substring]
import { readdirSync, statSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const grepIndex = args.indexOf('--grep');
const grep = grepIndex >= 0 ? args[grepIndex + 1] : undefined;
const suites = args.filter((a, i) => !a.startsWith('--') && (grepIndex < 0 || i !== grepIndex + 1));
const selected = suites.length ? suites : ['unit', 'integration', 'e2e'];

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

// run_command runs in bubblewrap by default: the integration and e2e tests need it (unit tests do not).
if (selected.some((s) => s !== 'unit')) {
  const sandbox = spawnSync('bash', ['scripts/setup-sandbox.sh'], { stdio: 'inherit' });
  if (sandbox.status !== 0) {
    console.error('sandbox setup failed');
    process.exit(1);
  }
}

let failed = false;
const totals = { pass: 0, fail: 0, skipped: 0 };
const tapDir = mkdtempSync(join(tmpdir(), 'lh-tap-'));
const configHome = mkdtempSync(join(tmpdir(), 'lh-config-'));
for (const suite of selected) {
  let files = walk(join('test', suite)).sort();
  if (grep) files = files.filter((f) => f.includes(grep));
  if (files.length === 0) continue;
  // The CLI keeps MCP sign-ins and config trust under XDG_CONFIG_HOME: tests never write the real ~/.config.
  const env = { ...process.env, LOCALHARNESS_TEST: '1', XDG_CONFIG_HOME: configHome };
  if (suite === 'e2e') {
    const setup = spawnSync('bash', ['scripts/setup-e2e.sh'], { stdio: 'inherit' });
    if (setup.status !== 0) {
      console.error('e2e setup failed');
      process.exit(1);
    }
    // Built once here, so each e2e file packages what is built instead of building again.
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('build failed');
      process.exit(1);
    }
    env.LOCALHARNESS_E2E_BUILT = '1';
  }
  console.log(`\n=== ${suite}: ${files.length} files ===`);
  // e2e files each start a code-server + Chromium: run them one at a time.
  const concurrency = suite === 'e2e' ? '1' : '2';
  // Unit files load TypeScript through tsx's in-thread require hook: its ESM loader runs in a separate thread and
  // answers every import by message, which made starting each of the ~150 unit files cost ~0.5 s more. The
  // other suites keep the ESM loader (some of their files import TypeScript with import()).
  const loader = suite === 'unit' ? ['--require', 'tsx/cjs'] : ['--import', 'tsx'];
  const res = spawnSync(
    process.execPath,
    [
      ...loader,
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${join(tapDir, suite + '.tap')}`,
      ...files,
    ],
    { stdio: 'inherit', env },
  );
  if (res.status !== 0) failed = true;
  try {
    const tap = readFileSync(join(tapDir, suite + '.tap'), 'utf8');
    for (const key of Object.keys(totals)) {
      const m = tap.match(new RegExp(`^# ${key} (\\d+)$`, 'm'));
      if (m) totals[key] += Number(m[1]);
    }
  } catch {
    failed = true;
  }
}
// One plain closing line for the whole suite (CI reads it).
console.log(`\n${totals.pass} passed, ${totals.fail} failed, ${totals.skipped} skipped`);
process.exit(failed || totals.fail > 0 ? 1 : 0);
