// What activating the extension costs, as shipped: the size of dist/extension.js (goal < 1.5 MB) and of the parts it
// loads on first use (dist/lazy/), and the time to require the bundle and run activate() (goal: activate() < 50 ms),
// each in a fresh process with scripts/measure-activation.mjs's stand-in vscode. Run after `npm run build`:
//   node --import tsx bench/activation.bench.ts [--runs 15] [--strict] [--baseline other/dist/extension.js]
// --baseline: another build (say, main's) timed A/B alternated in the same run, since a loaded machine moves
// every absolute number.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 15;
const STRICT = args.includes('--strict');
const BASELINE = args.includes('--baseline') ? path.resolve(args[args.indexOf('--baseline') + 1]) : undefined;
const MAX_BYTES = 1_500_000;
const MAX_ACTIVATE_MS = 50;
const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const BUNDLE = path.join(DIST, 'extension.js');
if (!existsSync(BUNDLE)) {
  console.error('activation bench: dist/extension.js is missing; run `npm run build` first');
  process.exit(2);
}

const sizeOf = (file: string) => ({ bytes: statSync(file).size, gzipped: gzipSync(readFileSync(file)).length });
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const main = sizeOf(BUNDLE);
console.log(`dist/extension.js: ${main.bytes.toLocaleString('en')} bytes (${kib(main.bytes)}, ${kib(main.gzipped)} gzipped); goal < ${MAX_BYTES.toLocaleString('en')}`);
const lazyDir = path.join(DIST, 'lazy');
let lazyTotal = 0;
for (const file of existsSync(lazyDir) ? readdirSync(lazyDir).sort() : []) {
  const part = sizeOf(path.join(lazyDir, file));
  lazyTotal += part.bytes;
  console.log(`  dist/lazy/${file.padEnd(22)} ${kib(part.bytes).padStart(8)} (${kib(part.gzipped)} gzipped)`);
}
console.log(`  loaded on first use: ${kib(lazyTotal)} in all`);

interface Sample {
  requireMs: number;
  activateMs: number;
  totalMs: number;
}

/** One fresh process through measure-activation (require() is cached; the first load is what users pay for). */
function measure(bundle: string): Sample {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/measure-activation.mjs'), bundle, '--runs', '1'], { cwd: ROOT, encoding: 'utf8' });
  const line = /require: ([\d.]+) ms, activate\(\): ([\d.]+) ms, total: ([\d.]+) ms/.exec(run.stdout);
  if (run.status !== 0 || !line) {
    console.error(`activation bench: measuring ${bundle} failed\n${run.stdout}${run.stderr}`);
    process.exit(1);
  }
  const [requireMs, activateMs, totalMs] = line.slice(1).map(Number);
  return { requireMs, activateMs, totalMs };
}

const median = (samples: Sample[], key: keyof Sample) => {
  const values = samples.map((s) => s[key]).sort((x, y) => x - y);
  return values[Math.floor(values.length / 2)];
};
const describe = (samples: Sample[]) =>
  `require() ${median(samples, 'requireMs').toFixed(1)} ms, activate() ${median(samples, 'activateMs').toFixed(1)} ms, total ${median(samples, 'totalMs').toFixed(1)} ms`;

const ours: Sample[] = [];
const baseline: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(measure(BUNDLE));
  if (BASELINE) baseline.push(measure(BASELINE));
}
const activateMs = median(ours, 'activateMs');
console.log(`dist/extension.js: ${describe(ours)} (medians of ${RUNS} fresh processes); goal activate() < ${MAX_ACTIVATE_MS} ms`);
if (BASELINE) {
  console.log(`baseline ${path.relative(process.cwd(), BASELINE)} (${kib(statSync(BASELINE).size)}): ${describe(baseline)}`);
  console.log(`ratio to the baseline: require() ${(median(ours, 'requireMs') / median(baseline, 'requireMs')).toFixed(2)}, activate() ${(activateMs / median(baseline, 'activateMs')).toFixed(2)}, total ${(median(ours, 'totalMs') / median(baseline, 'totalMs')).toFixed(2)}`);
}

const missed = [main.bytes >= MAX_BYTES && 'bundle size', activateMs >= MAX_ACTIVATE_MS && 'activate() time'].filter(Boolean);
console.log(missed.length === 0 ? 'both goals met' : `goal missed: ${missed.join(', ')}`);
if (STRICT && missed.length > 0) process.exit(1);
