// Mechanical layering check: only src/vscode/** and src/extension.ts import 'vscode' (the editor's code that needs
// no VS Code API lives in src/editor); each layer imports only what it may; no import cycles anywhere under src/;
// inside every folder of src/ (each layer and the folders in it) the sub-folders depend on each other one way only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const IMPORT_RE = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base + '.ts', base + '.tsx', path.join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const files = walk(SRC);
const layerOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

test('only src/vscode/** and src/extension.ts import vscode', () => {
  const offenders = files.filter((f) => {
    const rel = path.relative(SRC, f);
    if (rel === 'extension.ts' || rel.startsWith('vscode' + path.sep)) return false;
    return importsOf(f).includes('vscode');
  });
  assert.deepEqual(offenders.map((f) => path.relative(ROOT, f)), []);
});

test('layers import only downward', () => {
  // What each top-level folder of src/ may import from other folders.
  const allowed: Record<string, string[]> = {
    shared: [],
    core: ['shared'],
    providers: ['core', 'shared'],
    mcp: ['core', 'shared'],
    persistence: ['core', 'shared'],
    indexing: ['core', 'shared', 'providers', 'persistence'],
    node: ['core', 'shared'],
    // The one session builder both hosts call: it composes core parts with the indexing layer's tool pre-filter.
    builder: ['core', 'shared', 'indexing'],
    cli: ['core', 'shared', 'providers', 'mcp', 'persistence', 'indexing', 'node', 'builder'],
    // The editor's side without the VS Code API (state, settings parsing, the turn host, text): testable in Node.
    editor: ['core', 'shared', 'providers', 'mcp', 'persistence', 'indexing', 'node', 'builder'],
    vscode: ['editor', 'core', 'shared', 'providers', 'mcp', 'persistence', 'indexing', 'node', 'builder'],
    'extension.ts': ['vscode', 'editor', 'core', 'shared'],
  };
  const violations: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    for (const spec of importsOf(file)) {
      const target = resolveLocal(file, spec);
      if (!target || !target.startsWith(SRC)) continue;
      const to = layerOf(target);
      if (to === from) continue;
      if (!(allowed[from] ?? []).includes(to)) violations.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
    }
    if (from === 'shared') {
      for (const spec of importsOf(file)) {
        if (spec.startsWith('node:') || spec === 'vscode') violations.push(`${path.relative(ROOT, file)} imports ${spec}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('the webview imports only src/shared and browser libraries', () => {
  const webview = walk(path.join(ROOT, 'webview-ui'));
  const violations: string[] = [];
  for (const file of webview) {
    for (const spec of importsOf(file)) {
      if (spec === 'vscode' || spec.startsWith('node:')) violations.push(`${file}: ${spec}`);
      const target = resolveLocal(file, spec);
      if (target && target.startsWith(SRC) && layerOf(target) !== 'shared') violations.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('no import cycles under src/', () => {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    graph.set(file, importsOf(file).map((s) => resolveLocal(file, s)).filter((t): t is string => !!t));
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next);
      if (s === 'visiting') {
        const cycle = stack.slice(stack.indexOf(next)).concat(next);
        cycles.push(cycle.map((f) => path.relative(SRC, f)).join(' -> '));
      } else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  assert.deepEqual(cycles, []);
});

/** The sub-folders of `folder` that import each other in a loop (strongly connected groups of two or more). */
function subFolderLoops(folder: string): string[][] {
  const base = path.join(SRC, folder);
  const subOf = (file: string) => {
    const parts = path.relative(base, file).split(path.sep);
    return parts.length > 1 ? parts[0]! : '(files directly in the folder)';
  };
  const edges = new Map<string, Set<string>>();
  for (const file of files.filter((f) => f.startsWith(base + path.sep))) {
    const from = subOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const spec of importsOf(file)) {
      const target = resolveLocal(file, spec);
      if (!target || !target.startsWith(base + path.sep)) continue;
      const to = subOf(target);
      if (to !== from) edges.get(from)!.add(to);
    }
  }
  // Tarjan's strongly connected components over the folder graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return groups;
}

// Every folder under src/ that has sub-folders, at any depth (a layer, or a folder inside one such as core/tools):
// its sub-folders and the files directly in it depend on each other one way only.
const foldersWithSubFolders = [...new Set(files.map((f) => path.dirname(path.relative(SRC, f))))]
  .flatMap((dir) => dir.split(path.sep).map((_, i, parts) => parts.slice(0, i + 1).join(path.sep)))
  .filter((dir, i, all) => dir !== '.' && all.indexOf(dir) === i)
  .filter((dir) => readdirSync(path.join(SRC, dir)).some((name) => statSync(path.join(SRC, dir, name)).isDirectory()))
  .sort();

test('the sub-folder check covers every layer that has sub-folders', () => {
  const isDir = (p: string) => statSync(p).isDirectory();
  const layersWithSubFolders = readdirSync(SRC).filter((name) => isDir(path.join(SRC, name)) && readdirSync(path.join(SRC, name)).some((sub) => isDir(path.join(SRC, name, sub))));
  for (const layer of ['core', 'editor', 'vscode', 'mcp', 'cli', 'node']) assert.ok(layersWithSubFolders.includes(layer), `${layer} has sub-folders`);
  for (const layer of layersWithSubFolders) assert.ok(foldersWithSubFolders.includes(layer), `src/${layer} is checked`);
});

for (const folder of foldersWithSubFolders) {
  test(`sub-folders of src/${folder.split(path.sep).join('/')} depend on each other one way only`, () => {
    assert.deepEqual(subFolderLoops(folder), []);
  });
}

test('every file under src/vscode uses the VS Code API (the rest belongs in src/editor)', () => {
  const base = path.join(SRC, 'vscode');
  const needsVscode = new Map<string, boolean>();
  const needs = (file: string, seen: Set<string>): boolean => {
    if (needsVscode.has(file)) return needsVscode.get(file)!;
    if (seen.has(file)) return false;
    seen.add(file);
    const specs = importsOf(file);
    const result = specs.includes('vscode') || specs.some((s) => {
      const target = resolveLocal(file, s);
      return target !== undefined && target.startsWith(base + path.sep) && needs(target, seen);
    });
    needsVscode.set(file, result);
    return result;
  };
  const misplaced = files.filter((f) => f.startsWith(base + path.sep) && !needs(f, new Set()));
  assert.deepEqual(misplaced.map((f) => path.relative(ROOT, f)), []);
});

test('tests share helpers only through test/helpers (no kind imports another kind)', () => {
  const TEST = path.join(ROOT, 'test');
  const kinds = ['unit', 'integration', 'e2e'];
  const kindOf = (file: string) => path.relative(TEST, file).split(path.sep)[0]!;
  const violations: string[] = [];
  for (const file of [...walk(TEST), ...walk(path.join(ROOT, 'bench'))]) {
    const from = file.startsWith(TEST + path.sep) ? kindOf(file) : 'bench';
    for (const spec of importsOf(file)) {
      const target = resolveLocal(file, spec);
      if (!target || !target.startsWith(TEST + path.sep)) continue;
      const to = kindOf(target);
      if (kinds.includes(to) && to !== from) violations.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
    }
  }
  assert.deepEqual(violations, []);
});
