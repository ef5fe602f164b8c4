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
  'src/part.ts': "import { Shared, cache } from './shared';\nimport { Common } from './common';\nexport const partShared = Shared;\nexport const partCommon = Common;\nexport function remember(n: number) { cache.set('n', n); }\n",
  'src/other.ts': "import { Common } from './common';\nexport const otherCommon = Common;\n",
  'src/main.ts': "import { Shared, cache } from './shared';\nexport const mainShared = Shared;\nexport const seen = () => cache.get('n');\nexport const loadPart = () => import('./part');\nexport const loadOther = () => import('./other');\n",
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
    const part = await main.loadPart();
    const other = await main.loadOther();
    // Shared with the main bundle: the same class, and the same cache written by the part and read by main.
    assert.equal(part.partShared, main.mainShared);
    part.remember(7);
    assert.equal(main.seen(), 7);
    // In two parts only: owned by the first part listed, the other reads that one.
    assert.equal(other.otherCommon, part.partCommon);
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
