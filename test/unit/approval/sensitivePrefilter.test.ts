// The default sensitive patterns are compiled lazily, behind a literal-prefix check (sensitivePaths.ts). This
// checks the shortcut against the plain picomatch matchers it stands in for, on paths built to probe the edges:
// every default's own text in mixed case, inside and below folders, with dot segments, doubled slashes,
// non-ASCII look-alikes (Kelvin sign, dotless i, long s) and near misses.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { DEFAULT_SENSITIVE_PATTERNS, SensitivePaths, requiredLiteral } from '../../../src/core/workspace/sensitivePaths';

/** The matcher before the shortcut: every pattern compiled with picomatch, first hit wins. */
function oracle(path: string): string | undefined {
  const normalized = path
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/(\.\/)+/g, '/')
    .replace(/\/\.$/, '')
    .replace(/\/$/, '');
  if (normalized === '') return undefined;
  const parts = normalized.replace(/^\//, '').split('/');
  const suffixes = parts.map((_, i) => parts.slice(i).join('/'));
  for (const p of DEFAULT_SENSITIVE_PATTERNS) {
    const glob = p.pattern.replace(/\/+$/, '');
    const isMatch = picomatch([glob, `${glob}/**`], { dot: true, nocase: true });
    if (suffixes.some((s) => isMatch(s))) return p.pattern;
  }
  return undefined;
}

function variants(text: string): string[] {
  const out = new Set([text, text.toUpperCase(), text.toLowerCase()]);
  out.add([...text].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''));
  // Look-alikes whose lower case is ASCII (Kelvin sign → k, capital dotted I → i̇) or whose upper case is (ſ → S).
  out.add(text.replace(/k/gi, '\u212a'));
  out.add(text.replace(/i/gi, '\u0130'));
  out.add(text.replace(/s/gi, '\u017f'));
  out.add(text.replace(/i/gi, '\u0131'));
  return [...out];
}

test('lazy, prefix-checked default patterns match exactly what picomatch matches', () => {
  const paths = new SensitivePaths();
  const cases: string[] = ['', '.', '..', '/', 'a', 'src/index.ts', 'README.md', '.env', '.gitignore', 'done-1.txt', 'file1.txt'];
  for (const p of DEFAULT_SENSITIVE_PATTERNS) {
    const bare = p.pattern.replace(/\/\*\*$/, '').replace(/^\*/, 'my');
    for (const v of variants(bare)) {
      cases.push(v, `${v}/`, `${v}/x`, `${v}/x/y.txt`, `${v}/.hidden`, `${v}/../x`, `${v}/./x`, `sub/${v}`, `sub/dir/${v}/x`, `./${v}`, `${v}x`, `x${v}`, `${v}.bak`, `/abs/${v}`, `${v}//x`, `${v}\\x`);
    }
  }
  let checked = 0;
  for (const c of cases) {
    assert.equal(paths.match(c)?.pattern, oracle(c), JSON.stringify(c));
    checked++;
  }
  assert.ok(checked > 3000, `${checked} paths checked`);
});

test('the required text stops at wildcards, non-ASCII and the slash a globstar makes optional', () => {
  assert.deepEqual(requiredLiteral('.vscode/settings.json'), { literal: '.vscode/settings.json', atStart: true });
  assert.deepEqual(requiredLiteral('.git/**'), { literal: '.git', atStart: true });
  assert.deepEqual(requiredLiteral('.github/workflows/**'), { literal: '.github/workflows', atStart: true });
  assert.deepEqual(requiredLiteral('*.code-workspace'), { literal: '.code-workspace', atStart: false });
  assert.deepEqual(requiredLiteral('AGENTS.md'), { literal: 'agents.md', atStart: true });
  assert.deepEqual(requiredLiteral('src/{a,b}/x'), { literal: 'src', atStart: true });
  assert.deepEqual(requiredLiteral('caf\u00e9/x'), { literal: 'caf', atStart: true });
  assert.deepEqual(requiredLiteral('**/a/**/bcd/*.x'), { literal: 'bcd', atStart: false });
  assert.deepEqual(requiredLiteral('./x'), { literal: '', atStart: true });
});

test('in a fresh process, an ordinary path compiles no pattern; a sensitive one only those it could match', () => {
  // A child process: this one has compiled most patterns already (the test above).
  const script = `
    const picomatch = require('picomatch');
    const compiled = [];
    const makeRe = picomatch.makeRe;
    picomatch.makeRe = (glob, ...rest) => (compiled.push(glob), makeRe(glob, ...rest));
    const { SensitivePaths } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/workspace/sensitivePaths.ts'))});
    const paths = new SensitivePaths();
    const ordinary = paths.match('notes/done-1.txt');
    const sensitive = paths.match('sub/.git/hooks/pre-commit');
    process.stdout.write(JSON.stringify({ compiled, ordinary: ordinary ?? null, sensitive: sensitive?.pattern ?? null }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' })) as {
    compiled: string[];
    ordinary: unknown;
    sensitive: string | null;
  };
  assert.equal(out.ordinary, null);
  assert.equal(out.sensitive, '.git/hooks/**');
  // Only what .git/hooks/pre-commit could match (.git/hooks/**, .git/**, …); nothing for the ordinary path.
  assert.ok(out.compiled.length > 0, 'something was compiled (the spy works)');
  assert.ok(out.compiled.every((g) => g.toLowerCase().startsWith('.git')), `compiled ${out.compiled.join(', ')}`);
});
