// The CLI's code cache loader, in real child processes (the cache is written when a process exits): the bundle
// runs as a CommonJS module, an agent run writes the thorough cache that later runs keep, a corrupt cache is
// replaced, and a cache folder others can write is never used.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const loader = path.resolve(__dirname, '../../../src/cli/codeCache.ts');
let base: string;
let bundle: string;

before(() => {
  base = mkdtempSync(path.join(tmpdir(), 'lh-code-cache-'));
  bundle = path.join(base, 'bundle.js');
  // What the bundle needs from its module wrapper, plus work worth caching when AGENT is set.
  writeFileSync(
    bundle,
    `const os = require('node:os');
function work(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
module.exports.ran = true;
process.stdout.write(JSON.stringify({ dir: __dirname, file: __filename, exportsKept: module.exports === exports, os: typeof os.tmpdir, work: work(10) }));
if (process.env.AGENT) globalThis[Symbol.for('localharness.agentLoopRan')] = true;
`,
  );
});
after(() => rmSync(base, { recursive: true, force: true }));

function run(dir: string | undefined, env: Record<string, string> = {}): Record<string, unknown> {
  const script = `require(${JSON.stringify(loader)}).runWithCodeCache({ file: ${JSON.stringify(bundle)}, dir: ${JSON.stringify(dir)} });`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, unknown>;
}

const files = (dir: string) => readdirSync(dir).sort();

describe('CLI code cache', () => {
  it('runs the bundle as a CommonJS module, with or without a cache', () => {
    const expected = { dir: base, file: bundle, exportsKept: true, os: 'function', work: 24 };
    assert.deepEqual(run(undefined), expected);
    assert.deepEqual(run(path.join(base, 'cache-a')), expected);
  });

  it('keeps one cache per bundle; an agent run writes the thorough one, which later runs keep', () => {
    const dir = path.join(base, 'cache-b');
    run(dir);
    const plain = files(dir);
    assert.equal(plain.length, 1);
    assert.match(plain[0]!, /^[0-9a-f]{24}\.bin$/);
    const plainWritten = statSync(path.join(dir, plain[0]!)).mtimeMs;
    run(dir); // accepted: not written again
    assert.equal(statSync(path.join(dir, plain[0]!)).mtimeMs, plainWritten);

    run(dir, { AGENT: '1' });
    const both = files(dir);
    assert.equal(both.length, 2);
    const thorough = both.find((f) => f.endsWith('.agent.bin'))!;
    assert.ok(thorough, `no thorough cache in ${both.join(', ')}`);
    const thoroughWritten = statSync(path.join(dir, thorough)).mtimeMs;
    run(dir, { AGENT: '1' });
    run(dir);
    assert.equal(statSync(path.join(dir, thorough)).mtimeMs, thoroughWritten, 'a thorough cache that loads is kept');
    assert.deepEqual(files(dir), both);

    // Another bundle (a new version) gets its own file.
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '\n// changed\n');
    run(dir);
    assert.equal(files(dir).length, 3);
  });

  it('replaces a corrupt cache and still runs the bundle', () => {
    const dir = path.join(base, 'cache-c');
    run(dir);
    const [name] = files(dir);
    writeFileSync(path.join(dir, name!), 'not a code cache');
    assert.equal(run(dir).work, 24);
    assert.notEqual(readFileSync(path.join(dir, name!), 'utf8'), 'not a code cache');
  });

  it('never uses a cache folder that others can write', { skip: process.platform === 'win32' }, () => {
    const dir = path.join(base, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    writeFileSync(path.join(dir, 'planted'), 'x');
    assert.equal(run(dir).work, 24);
    assert.deepEqual(files(dir), ['planted']);
  });
});
