// No class under src/ has more than 25 methods: past that a class does several jobs (the god objects of
// STYLE.md). What counts, per class declaration or expression, read with the TypeScript compiler API: every
// method (public, private, #private, static, abstract, overloads counted once), every `get` and every `set`
// accessor (a get/set pair is two), and every property initialised with an arrow function or a function
// expression (a method written as a field). The constructor does not count, nor do plain fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');
const MAX_METHODS = 25;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

function countsMember(member: ts.ClassElement): boolean {
  if (ts.isMethodDeclaration(member)) return member.body !== undefined || hasModifier(member, ts.SyntaxKind.AbstractKeyword);
  if (ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member)) return true;
  if (ts.isPropertyDeclaration(member) && member.initializer) return ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer);
  return false;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** Each class in the source with its method count, named `file:Class` (anonymous classes by line). */
function methodCounts(fileName: string, text: string): Array<{ name: string; methods: number }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ name: string; methods: number }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      out.push({ name: `${fileName}:${node.name?.text ?? `(class at line ${line})`}`, methods: node.members.filter(countsMember).length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

test('the counter counts methods, private and static ones, accessors and function-valued fields, not the constructor', () => {
  const text = `
    abstract class A {
      x = 1;
      private readonly onDone = () => undefined;
      handler = function () {};
      constructor() {}
      a(): void {}
      private b(): void {}
      #c(): void {}
      static d(): void {}
      e(x: string): void;
      e(x: number): void;
      e(x: unknown): void {}
      abstract f(): void;
      get g(): number { return 1; }
      set g(v: number) {}
    }
    const B = class { h(): void {} };`;
  assert.deepEqual(methodCounts('x.ts', text), [
    { name: 'x.ts:A', methods: 10 },
    { name: 'x.ts:(class at line 18)', methods: 1 },
  ]);
});

test(`no class under src/ has more than ${MAX_METHODS} methods`, () => {
  const all = walk(SRC).flatMap((file) => methodCounts(path.relative(ROOT, file), readFileSync(file, 'utf8')));
  assert.ok(all.length > 100, `found ${all.length} classes: the walk reads src/`);
  const over = all.filter((c) => c.methods > MAX_METHODS).map((c) => `${c.name}: ${c.methods} methods`);
  assert.deepEqual(over, []);
});
