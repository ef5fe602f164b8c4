// How often the write guard's placeholder detector would refuse real code: runs it over every .js/.ts/.py/.md file
// under a folder (default: node_modules, full of spread syntax, varargs and ellipses in docs) as if a model
// were writing each file new, and prints the share of files it would refuse, with the flagged lines.
// Usage: node --import tsx scripts/measure-write-guard.ts [folder] [--show N]
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { findPlaceholder } from '../src/core/tools/builtin/omissionPlaceholders';

const args = process.argv.slice(2);
const showAt = args.indexOf('--show');
const show = showAt >= 0 ? Number(args[showAt + 1]) : 20;
const root = path.resolve(args.find((a, i) => !a.startsWith('--') && i !== showAt + 1) ?? 'node_modules');
const EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx', '.py', '.md']);

function* files(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) yield* files(full);
    else if (EXTENSIONS.has(path.extname(name)) && st.size < 2_000_000) yield full;
  }
}

let total = 0;
let withEllipsis = 0;
const flagged: string[] = [];
const seen = new Set<string>();
for (const file of files(root)) {
  // The same file reached through two symlinked paths counts once.
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // a dangling link: count the path itself
  }
  if (seen.has(real)) continue;
  seen.add(real);
  const text = readFileSync(file, 'utf8');
  total++;
  if (text.includes('...') || text.includes('…')) withEllipsis++;
  const hit = findPlaceholder(text, undefined, file);
  if (hit) flagged.push(`${path.relative(root, file)}:${hit.line}: ${hit.text}`);
}
const rate = (n: number, d: number) => (d ? ((100 * n) / d).toFixed(2) : '0.00');
console.log(`Files scanned: ${total} (${withEllipsis} contain "..." or "…") under ${root}`);
console.log(`Would be refused as holding a placeholder: ${flagged.length} = ${rate(flagged.length, total)}% of all files, ${rate(flagged.length, withEllipsis)}% of files with an ellipsis`);
for (const line of flagged.slice(0, show)) console.log('  ' + line);
