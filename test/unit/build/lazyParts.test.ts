// The build's lazy parts (scripts/lazyParts.mjs) on a small project of real files, built by esbuild and loaded:
// import() of a part becomes its own file, a module shared with the main bundle or between two parts exists once,
// and a static import of a part is a build error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface LazyParts {
  buildWithLazyParts(options: { main: Record<string, unknown>; parts: { name: string; module: string }[]; root: string; lazyDir: string }): Promise<unknown>;
}
const lazyParts = import(path.resolve(__dirname, '../../../scripts/lazyParts.mjs')) as Promise<LazyParts>;

function project(files: Record<string, string>): { root: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-lazy-parts-'));
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), source);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

async function build(root: string, entry: string, parts: { name: string; module: string }[]): Promise<string> {
  const { buildWithLazyParts } = await lazyParts;
  const out = path.join(root, 'out');
  await buildWithLazyParts({
    main: { entryPoints: [path.join(root, entry)], outfile: path.join(out, 'main.js'), bundle: true, platform: 'node', format: 'cjs', supported: { 'dynamic-import': false }, logLevel: 'silent' },
    parts,
    root,
    lazyDir: path.join(out, 'lazy'),
  });
  return out;
}

const FILES = {
  'src/shared.ts': 'export class Shared {}\nexport const cache = new Map<string, number>();\n',
  'src/common.ts': 'export class Common {}\n',
  // main uses only `used`; `unused` (tree-shaken from main) needs deep.ts, which both parts import as well.
  'src/deep.ts': 'export class Deep {}\n',
  'src/mixed.ts': "import { Deep } from './deep';\nexport const used = () => 1;\nexport const unused = () => new Deep();\n",
  'src/part.ts': "import { Shared, cache } from './shared';\nimport { Common } from './common';\nimport { Deep } from './deep';\nexport const partShared = Shared;\nexport const partCommon = Common;\nexport const partDeep = Deep;\nexport function remember(n: number) { cache.set('n', n); }\n",
  'src/other.ts': "import { Common } from './common';\nimport { Deep } from './deep';\nexport const otherCommon = Common;\nexport const otherDeep = Deep;\n",
  'src/main.ts': "import { Shared, cache } from './shared';\nimport { used } from './mixed';\nexport const mainShared = Shared;\nexport const usedValue = used();\nexport const seen = () => cache.get('n');\nexport const loadPart = () => import('./part');\nexport const loadOther = () => import('./other');\n",
};

test('import() of a part loads its own file, and every module exists once across the main bundle and the parts', async () => {
  const { root, cleanup } = project(FILES);
  try {
    const out = await build(root, 'src/main.ts', [
      { name: 'part', module: 'src/part.ts' },
      { name: 'other', module: 'src/other.ts' },
    ]);
    assert.deepEqual(readdirSync(path.join(out, 'lazy')).sort(), ['other.js', 'part.js']);
    const main = require(path.join(out, 'main.js'));
    // Loading main loads no part, not even for a module main has but does not use.
    assert.equal(main.usedValue, 1);
    assert.deepEqual(Object.keys(require.cache).filter((f) => f.startsWith(path.join(out, 'lazy'))), []);
    const part = await main.loadPart();
    const other = await main.loadOther();
    // Shared with the main bundle: the same class, and the same cache written by the part and read by main.
    assert.equal(part.partShared, main.mainShared);
    part.remember(7);
    assert.equal(main.seen(), 7);
    // In two parts only: owned by the first part listed, the other reads that one.
    assert.equal(other.otherCommon, part.partCommon);
    assert.equal(other.otherDeep, part.partDeep);
  } finally {
    cleanup();
  }
});

test('a static import of a part fails the build with the reason', async () => {
  const { root, cleanup } = project({ ...FILES, 'src/static.ts': "import { partShared } from './part';\nexport const x = partShared;\n" });
  try {
    await assert.rejects(build(root, 'src/static.ts', [{ name: 'part', module: 'src/part.ts' }]), /src\/part\.ts loads on first use \(dist\/lazy\/part\.js\): import it with import\(\), not import-statement/);
  } finally {
    cleanup();
  }
});
