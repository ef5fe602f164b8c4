// Mechanical layering check: only src/vscode/** and src/extension.ts import 'vscode'; each layer imports only
// what it may; no import cycles anywhere under src/.
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
    session: ['core', 'shared', 'indexing'],
    cli: ['core', 'shared', 'providers', 'mcp', 'persistence', 'indexing', 'node', 'session'],
    vscode: ['core', 'shared', 'providers', 'mcp', 'persistence', 'indexing', 'node', 'session'],
    'extension.ts': ['vscode', 'core', 'shared'],
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
