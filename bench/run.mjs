// Runs every benchmark in bench/ (*.bench.ts) one after another, each in its own node process so one bench's
// heap and timers never disturb the next, prints their output as it comes, then one line per bench.
// Usage: node bench/run.mjs [name ...]     e.g. `node bench/run.mjs tokens compression`
// `npm run bench` builds first: the overhead bench times the built CLI (dist/cli.js).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
// The order the README reports them in; benches added later run after these, alphabetically.
const ORDER = ['overhead', 'persistence', 'compression', 'tokens', 'toolFilter', 'sandbox'];

const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`bench/run.mjs: no bench named ${unknown.join(', ')} (available: ${available.join(', ')})`);
  process.exit(2);
}
const selected = wanted.length > 0 ? available.filter((b) => wanted.includes(b)) : available;

if (selected.includes('overhead') && !existsSync(path.join(root, 'dist', 'cli.js'))) {
  console.error('bench/run.mjs: dist/cli.js is missing; run `npm run build` first (or `npm run bench`, which builds).');
  process.exit(2);
}

const results = [];
for (const name of selected) {
  console.log(`\n=== bench: ${name} ===\n`);
  const started = performance.now();
  const code = await run(path.join(here, `${name}.bench.ts`));
  results.push({ name, code, seconds: (performance.now() - started) / 1000 });
}

console.log('\n=== benches ===');
for (const r of results) console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name.padEnd(12)} ${r.seconds.toFixed(1).padStart(6)} s${r.code === 0 ? '' : `  (exit ${r.code})`}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);

function rank(name) {
  const i = ORDER.indexOf(name);
  return i < 0 ? ORDER.length : i;
}

/** Resolves with the exit code (a signal counts as a failure). */
function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`bench/run.mjs: could not start ${file}: ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
