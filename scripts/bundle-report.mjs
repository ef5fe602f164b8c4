// What the bundles are made of: for each output, its size and the inputs that contribute most, grouped by
// package (node_modules) or by source folder. Reads the metafiles `node esbuild.mjs --metafile` writes.
// Usage: node scripts/bundle-report.mjs [dist/meta] [--top N] [--depth D]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const top = option('--top', 15);
const depth = option('--depth', 3);
const dir = args.find((a, i) => !a.startsWith('--') && !['--top', '--depth'].includes(args[i - 1])) ?? 'dist/meta';

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** `zod` for any file of node_modules/zod; `src/core/tools` for src/core/tools/registry.ts at depth 3. */
function groupOf(input) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (pkg) return `npm ${pkg[1]}`;
  const namespaced = /^([\w-]{2,}):/.exec(input);
  if (namespaced) return `(${namespaced[1]})`;
  return input.split('/').slice(0, depth).join('/');
}

let files;
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
} catch {
  console.error(`${dir} does not exist; run \`node esbuild.mjs --metafile\` first.`);
  process.exit(1);
}
for (const file of files) {
  const meta = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  for (const [outfile, output] of Object.entries(meta.outputs)) {
    if (!outfile.endsWith('.js')) continue;
    const groups = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) groups.set(groupOf(input), (groups.get(groupOf(input)) ?? 0) + bytesInOutput);
    const rows = [...groups].sort((a, b) => b[1] - a[1]).slice(0, top);
    console.log(`\n${path.relative(process.cwd(), path.resolve(outfile))}: ${kib(output.bytes)}`);
    for (const [group, bytes] of rows) console.log(`  ${kib(bytes).padStart(11)}  ${group}`);
  }
}
