// The structural chunker on realistic files: TypeScript, Python, Go, Rust, Java, C#, C, Markdown, plain text,
// minified JavaScript, CRLF files and line ranges. Every result is also checked against the contract (every line
// in exactly one chunk, in order, text = those lines).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunkText, outlineText } from '../../../src/core/knowledge/chunker';
import { assertCoversExactly, chunkChecked, fixture, FIXTURES, spans } from './chunkerInvariants';

test('a TypeScript module: imports in one block, then each declaration with its doc comment and decorator', () => {
  const text = fixture('orderStore.ts');
  const chunks = chunkChecked(text, 'src/orders/orderStore.ts');
  assert.deepEqual(spans(chunks), [
    [1, 7, 'block', 'imports'], // the file's header comment (with a brace in it) and both import groups
    [8, 10, 'block', 'MAX_ORDERS, CURRENCY'], // two tiny constants, merged
    [11, 18, 'interface', 'OrderLine'],
    [19, 20, 'type', 'OrderId'],
    [21, 32, 'function', 'orderTotal'], // JSDoc with braces, a `}` in a line comment
    [33, 38, 'function', 'describeOrder'], // arrow function; braces in a string, a template and a regex
    [39, 70, 'class', 'OrderStore'], // @Injectable(...) above it; short enough to stay whole
    [71, 73, 'function', 'createStore'],
  ]);
  assert.match(chunks[4]!.text, /^\/\*\*\n \* The total of all lines/);
  assert.match(chunks[6]!.text, /^@Injectable\(\{ providedIn: 'root' \}\)\nexport class OrderStore/);
  assert.match(chunks[6]!.text, /\n}\n$/, 'the blank line below joins the chunk above');
});

test('a class longer than the limit is cut into its methods, named after the class', () => {
  const chunks = chunkChecked(fixture('orderStore.ts'), 'src/orders/orderStore.ts', { maxLines: 12 });
  assert.deepEqual(spans(chunks).slice(7, 13), [
    [39, 42, 'class', 'OrderStore'], // decorator, header and the field above the first method
    [43, 46, 'method', 'OrderStore.constructor'],
    [47, 54, 'method', 'OrderStore.add'],
    [55, 58, 'method', 'OrderStore.get'],
    [59, 63, 'method', 'OrderStore.remove'], // its block comment (holding a `{`) comes along
    [64, 70, 'method', 'OrderStore.totals'], // an arrow-function property; takes the class's closing brace
  ]);
  assert.match(chunks[12]!.text, /};\n}\n$/);
});

test('braces inside strings, templates, regexes and comments do not move declaration boundaries', () => {
  const text = [
    "const open = '{{{';", //                       1
    'const re = /[{(]+/g;', //                      2
    'const tpl = `${open} { ${re.source}`;', //     3
    '// }', //                                      4
    '/* { { */', //                                 5
    'function after(a: string): string {', //      6
    "  return a + '}';", //                         7
    '}', //                                         8
    '', //                                          9
    'function last(): void {', //                  10
    '  console.log(`}}}`);', //                    11
    '}', //                                        12
  ].join('\n');
  const chunks = chunkChecked(text, 'weird.ts');
  assert.deepEqual(spans(chunks), [
    [1, 3, 'block', 'open, re, tpl'],
    [4, 9, 'function', 'after'],
    [10, 12, 'function', 'last'],
  ]);
});

test('a function longer than the limit is split at blank lines near the limit, keeping its name with "(part N)"', () => {
  const body: string[] = [];
  for (let block = 0; block < 12; block++) {
    for (let k = 0; k < 7; k++) body.push(`  const v${block}_${k} = compute(${block}, ${k});`);
    body.push('');
  }
  const text = ['export function migrateEverything(db: Database): void {', ...body, '}', ''].join('\n');
  const chunks = chunkChecked(text, 'migrate.ts', { maxLines: 30 });
  assert.deepEqual(
    chunks.map((c) => c.name),
    ['migrateEverything', 'migrateEverything (part 2)', 'migrateEverything (part 3)', 'migrateEverything (part 4)'],
  );
  assert.ok(chunks.every((c) => c.kind === 'function'));
  // Every cut but the last falls right after a blank line: no statement group is torn apart.
  for (const chunk of chunks.slice(0, -1)) assert.equal(chunk.text.split('\n').pop(), '', `cut after line ${chunk.endLine}`);
  // …and no part is a sliver.
  assert.ok(chunks.every((c) => c.endLine - c.startLine + 1 >= 8), JSON.stringify(spans(chunks)));
});

test('Python: by indentation, decorators attached, docstrings and strings that look like code ignored', () => {
  const text = fixture('pipeline.py');
  assert.deepEqual(spans(chunkChecked(text, 'etl/pipeline.py')), [
    [1, 6, 'block', undefined], // the module docstring, with a fake `def` inside
    [7, 11, 'block', 'imports'],
    [12, 15, 'block', 'log, DEFAULT_COLUMNS'],
    [16, 23, 'class', 'Row'], // @dataclass
    [24, 34, 'function', 'load'], // a comment at column 0 inside the body does not end it
    [35, 59, 'class', 'Cleaner'], // a ''' string holding `class NotAClass:` at column 0 stays inside
    [60, 64, 'function', 'summarise'],
    [65, 69, 'block', undefined], // if … else at the top level
  ]);
  assert.deepEqual(spans(chunkChecked(text, 'etl/pipeline.py', { maxLines: 12 })).slice(6, 10), [
    [35, 39, 'class', 'Cleaner'], // docstring and class attribute
    [40, 42, 'method', 'Cleaner.__init__'],
    [43, 50, 'method', 'Cleaner.clean'], // a multi-line list comprehension
    [51, 59, 'method', 'Cleaner.describe'], // @staticmethod
  ]);
});

test('Go: package and imports together, structs, interfaces, methods named after their receiver', () => {
  const chunks = chunkChecked(fixture('server.go'), 'server/server.go');
  assert.deepEqual(spans(chunks), [
    [1, 9, 'block', 'imports'],
    [10, 12, 'block', 'banner'], // a raw string with braces over two lines
    [13, 18, 'class', 'Server'],
    [19, 29, 'block', 'Handler, Middleware, New'], // three tiny declarations, merged
    [30, 42, 'method', 'Server.Start'],
    [43, 45, 'method', 'Server.Handle'],
  ]);
  const outline = outlineText(fixture('server.go'), 'server/server.go');
  assert.deepEqual(
    outline.map((o) => [o.line, o.kind, o.name]),
    [
      [10, 'block', 'banner'],
      [14, 'class', 'Server'],
      [19, 'interface', 'Handler'],
      [23, 'type', 'Middleware'],
      [26, 'function', 'New'],
      [31, 'method', 'Server.Start'],
      [43, 'method', 'Server.Handle'],
    ],
  );
});

test("Rust: attributes attached, lifetimes are not strings, impl blocks cut into methods of their type", () => {
  const text = fixture('cache.rs');
  assert.deepEqual(spans(chunkChecked(text, 'src/cache.rs')), [
    [1, 4, 'block', 'imports'],
    [5, 11, 'class', 'Entry'], // doc comment + #[derive] + a struct with 'a
    [12, 21, 'block', 'Policy, Store'],
    [22, 27, 'class', 'Cache'],
    [28, 37, 'class', 'Cache'], // impl Cache
    [38, 56, 'class', 'Cache'], // impl Store for Cache: a '{' char and a raw string with '}' inside
    [57, 59, 'function', 'longest'],
  ]);
  assert.deepEqual(spans(chunkChecked(text, 'src/cache.rs', { maxLines: 12 })).slice(6, 9), [
    [38, 38, 'class', 'Cache'],
    [39, 44, 'method', 'Cache.get'],
    [45, 56, 'method', 'Cache.put'],
  ]);
});

test('Java, C# and C: annotations and attributes attached, constructors and methods, GNU-style return types', () => {
  const java = [
    'package com.example.shop;',
    '',
    'import java.util.List;',
    'import java.util.Map;',
    '',
    '/** Prices things. */',
    '@Service',
    'public class PriceService {',
    '    private final Map<String, Integer> prices;',
    '',
    '    public PriceService(Map<String, Integer> prices) {',
    '        this.prices = prices;',
    '    }',
    '',
    '    @Override',
    '    public int priceOf(String sku) {',
    '        Integer price = prices.get(sku); // "}" in a comment',
    '        return price == null ? 0 : price;',
    '    }',
    '',
    '    public int total(List<String> skus) {',
    '        int total = 0;',
    '        for (String sku : skus) {',
    '            total += priceOf(sku);',
    '        }',
    '        return total;',
    '    }',
    '}',
  ].join('\n');
  assert.deepEqual(spans(chunkChecked(java, 'src/main/java/com/example/shop/PriceService.java', { maxLines: 8 })), [
    [1, 5, 'block', 'imports'],
    [6, 10, 'class', 'PriceService'],
    [11, 14, 'method', 'PriceService.PriceService'],
    [15, 20, 'method', 'PriceService.priceOf'],
    [21, 28, 'method', 'PriceService.total'],
  ]);

  const csharp = [
    'using System;',
    'using System.Text;',
    '',
    'namespace Example.Greeting',
    '{',
    '    [Serializable]',
    '    public class Greeter',
    '    {',
    '        public string Name { get; set; }',
    '',
    '        public Greeter(string name)',
    '        {',
    '            Name = name;',
    '        }',
    '',
    '        [Obsolete("use Greet")]',
    '        public string Hello() => $"Hello {Name}";',
    '',
    '        public string Greet(string other)',
    '        {',
    '            var path = @"C:\\{braces}\\";',
    '            return $"Hi {other}, I am {Name}";',
    '        }',
    '    }',
    '}',
  ].join('\n');
  assert.deepEqual(spans(chunkChecked(csharp, 'Greeter.cs', { maxLines: 8 })), [
    [1, 3, 'block', 'imports'],
    [4, 5, 'block', 'Example.Greeting'], // the namespace, cut because it is long; Allman braces
    [6, 10, 'class', 'Greeter'],
    [11, 15, 'method', 'Greeter.Greeter'],
    [16, 18, 'method', 'Greeter.Hello'],
    [19, 25, 'method', 'Greeter.Greet'], // a verbatim string ending in a backslash
  ]);

  const c = [
    '#include <stdlib.h>',
    '#include "list.h"',
    '',
    'struct node {',
    '    int value;',
    '    struct node *next;',
    '};',
    '',
    'static int',
    'list_length(const struct node *head)',
    '{',
    '    int n = 0;',
    '    while (head) {',
    '        n++;',
    '        head = head->next;',
    '    }',
    '    return n;',
    '}',
    '',
    'struct node *list_push(struct node *head, int value) {',
    '    struct node *node = malloc(sizeof *node);',
    '    node->value = value; /* { */',
    '    node->next = head;',
    '    return node;',
    '}',
  ].join('\n');
  assert.deepEqual(spans(chunkChecked(c, 'src/list.c')), [
    [1, 3, 'block', 'imports'],
    [4, 8, 'class', 'node'],
    [9, 19, 'function', 'list_length'], // `static int` on the line above belongs to it
    [20, 25, 'function', 'list_push'], // returns `struct node *`: a function, not a struct
  ]);
});

test('Markdown: sections by heading (ATX and setext), front matter apart, fenced "# comments" are not headings', () => {
  const text = fixture('guide.md');
  const chunks = chunkChecked(text, 'docs/guide.md');
  assert.deepEqual(spans(chunks), [
    [1, 9, 'block', 'User guide'], // front matter + the tiny first section
    [10, 18, 'section', 'Installing'], // the fence's `# not a heading` stays inside
    [19, 27, 'section', 'Usage / Commands / Index this file'], // headings with nothing under them introduce the next
    [28, 35, 'section', 'Remove from index, Troubleshooting'],
  ]);
  assert.match(chunks[1]!.text, /# not a heading: a shell comment/);
  assert.deepEqual(
    outlineText(text, 'docs/guide.md').map((o) => [o.line, o.name]),
    [
      [6, 'User guide'],
      [10, 'Installing'],
      [24, 'Usage / Commands / Index this file'],
      [28, 'Remove from index'],
      [32, 'Troubleshooting'],
    ],
  );
  // Without headings, Markdown is cut like any text: by paragraphs.
  const plain = 'First paragraph,\nstill first.\n\nSecond paragraph.\n';
  assert.deepEqual(spans(chunkChecked(plain, 'NOTES.md', { maxLines: 3 })), [
    [1, 3, 'block', undefined],
    [4, 4, 'block', undefined],
  ]);
});

test('other text: paragraphs; long structured text is cut before its least indented lines', () => {
  const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} line one.\nParagraph ${i} line two.\nParagraph ${i} line three.`).join('\n\n');
  const chunks = chunkChecked(paragraphs, 'notes.txt', { maxLines: 10 });
  // Tiny paragraphs are merged, never beyond half the limit.
  assert.deepEqual(spans(chunks), [
    [1, 4, 'block', undefined],
    [5, 8, 'block', undefined],
    [9, 12, 'block', undefined],
    [13, 16, 'block', undefined],
    [17, 20, 'block', undefined],
    [21, 23, 'block', undefined],
  ]);

  const tasks = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`task${i}`, { command: `run ${i}`, cwd: `packages/p${i}` }]));
  const json = JSON.stringify({ name: 'app', tasks, dependencies: { a: '1', b: '2' } }, null, 2);
  const jsonChunks = chunkChecked(json, 'tasks.json', { maxLines: 20 });
  assert.ok(jsonChunks.length >= 4);
  // Each later part starts at a key of the top object or of `tasks`: never inside a task, never at a closing brace.
  for (const chunk of jsonChunks.slice(1)) assert.match(chunk.text, /^ {2,4}"\w+": /, chunk.text.slice(0, 40));
});

test('minified JavaScript: one enormous line stays one chunk', () => {
  const line = Array.from({ length: 4000 }, (_, i) => `function f${i}(a){return a.map(function(x){return x*${i}})}`).join(';');
  const chunks = chunkChecked(line, 'dist/app.min.js');
  assert.deepEqual(spans(chunks), [[1, 1, 'function', 'f0']]);
  assert.equal(chunks[0]!.text.length, line.length);
  // The source map comment is tiny: it joins the code (as a plain block then).
  assert.deepEqual(spans(chunkChecked(`${line}\n//# sourceMappingURL=app.min.js.map\n`, 'dist/app.min.js')), [[1, 2, 'block', 'f0']]);
});

test('CRLF and CR line endings give the same chunks as LF, with clean text', () => {
  for (const name of ['orderStore.ts', 'pipeline.py', 'server.go', 'cache.rs', 'guide.md']) {
    const lf = fixture(name);
    const file = `x/${name}`;
    const expected = chunkText(lf, file);
    for (const [label, text] of [
      ['CRLF', lf.replace(/\n/g, '\r\n')],
      ['CR', lf.replace(/\n/g, '\r')],
    ] as const) {
      const chunks = chunkText(text, file);
      assertCoversExactly(text, chunks, `${name} ${label}`);
      assert.deepEqual(chunks, expected, `${name} ${label}`);
    }
  }
});

test('a range: only those lines, numbered as in the file, named as their class members', () => {
  const text = fixture('orderStore.ts');
  const inClass = chunkChecked(text, 'src/orderStore.ts', { range: { startLine: 47, endLine: 62 } });
  assert.deepEqual(spans(inClass), [
    [47, 54, 'method', 'OrderStore.add'],
    [55, 62, 'method', 'OrderStore.get, OrderStore.remove'],
  ]);
  assert.ok(inClass[0]!.text.startsWith('  add(id: OrderId'));
  assert.deepEqual(spans(chunkChecked(text, 'src/orderStore.ts', { range: { startLine: 21, endLine: 38 } })), [
    [21, 32, 'function', 'orderTotal'],
    [33, 38, 'function', 'describeOrder'],
  ]);
  // A range that starts inside a template or comment still knows where strings are: the lexer reads from line 1.
  assert.deepEqual(spans(chunkChecked(text, 'src/orderStore.ts', { range: { startLine: 24, endLine: 32 } })), [[24, 32, 'function', 'orderTotal']]);
  // Past the end of the file: cut at the end. A single line works.
  assert.deepEqual(spans(chunkChecked(text, 'src/orderStore.ts', { range: { startLine: 71, endLine: 500 } })), [[71, 73, 'function', 'createStore']]);
  assert.deepEqual(spans(chunkChecked(text, 'src/orderStore.ts', { range: { startLine: 8, endLine: 8 } })), [[8, 8, 'block', 'MAX_ORDERS']]);
  assert.deepEqual(chunkText(text, 'src/orderStore.ts', { range: { startLine: 900, endLine: 950 } }), []);
  assert.deepEqual(chunkText(text, 'src/orderStore.ts', { range: { startLine: 10, endLine: 10 } }), [], 'a blank line has nothing to index');

  const py = fixture('pipeline.py');
  assert.deepEqual(spans(chunkChecked(py, 'etl/pipeline.py', { range: { startLine: 40, endLine: 57 } })), [
    [40, 42, 'method', 'Cleaner.__init__'],
    [43, 50, 'method', 'Cleaner.clean'],
    [51, 57, 'method', 'Cleaner.describe'],
  ]);
});

test('bad ranges and limits are refused with a clear message', () => {
  const text = fixture('orderStore.ts');
  for (const range of [
    { startLine: 0, endLine: 3 },
    { startLine: 5, endLine: 4 },
    { startLine: 1.5, endLine: 4 },
    { startLine: Number.NaN, endLine: 4 },
  ]) {
    assert.throws(() => chunkText(text, 'a.ts', { range }), /A line range needs whole numbers with 1 ≤ startLine ≤ endLine/, JSON.stringify(range));
  }
  for (const maxLines of [0, -3, 2.5]) assert.throws(() => chunkText(text, 'a.ts', { maxLines }), /maxLines must be a whole number ≥ 1/);
});

test('a byte order mark does not hide the first declaration or heading, and stays in the text', () => {
  const md = chunkChecked('\uFEFF# Title\n\nIntro text.\n\n## Part\n\nMore text here.\n', 'doc.md', { maxLines: 4 });
  assert.deepEqual(spans(md), [
    [1, 4, 'section', 'Title'],
    [5, 7, 'section', 'Part'],
  ]);
  assert.ok(md[0]!.text.startsWith('\uFEFF# Title'));
  const ts = chunkChecked("\uFEFFimport { a } from './a';\n\nexport function useA(): number {\n  return a;\n}\n", 'b.ts', { maxLines: 8 });
  assert.deepEqual(spans(ts), [
    [1, 2, 'block', 'imports'],
    [3, 5, 'function', 'useA'],
  ]);
});

test('empty and blank files have no chunks; a one-line file has one', () => {
  assert.deepEqual(chunkText('', 'a.ts'), []);
  assert.deepEqual(chunkText('\n\n  \n\t\n', 'a.py'), []);
  assert.deepEqual(chunkText('\r\n', 'a.md'), []);
  assert.deepEqual(spans(chunkChecked('export const x = 1;', 'a.ts')), [[1, 1, 'block', 'x']]);
  assert.deepEqual(spans(chunkChecked('no newline at the end', 'a.txt')), [[1, 1, 'block', undefined]]);
});

test('many tiny declarations merge into chunks that list (a few of) their names', () => {
  const text = Array.from({ length: 12 }, (_, i) => `export const LIMIT_${i} = ${i};`).join('\n');
  const chunks = chunkChecked(text, 'limits.ts');
  assert.deepEqual(spans(chunks), [[1, 12, 'block', 'LIMIT_0, LIMIT_1, LIMIT_2, +9 more']]);
});

test('the outline lists every declaration, also the methods of classes short enough to stay one chunk', () => {
  const outline = outlineText(fixture('orderStore.ts'), 'src/orderStore.ts');
  assert.deepEqual(
    outline.map((o) => [o.line, o.endLine, o.kind, o.name]),
    [
      [8, 8, 'block', 'MAX_ORDERS'],
      [9, 9, 'block', 'CURRENCY'],
      [12, 17, 'interface', 'OrderLine'],
      [19, 19, 'type', 'OrderId'],
      [25, 31, 'function', 'orderTotal'],
      [33, 37, 'function', 'describeOrder'],
      [40, 41, 'class', 'OrderStore'],
      [43, 45, 'method', 'OrderStore.constructor'],
      [47, 53, 'method', 'OrderStore.add'],
      [55, 57, 'method', 'OrderStore.get'],
      [60, 62, 'method', 'OrderStore.remove'],
      [64, 68, 'method', 'OrderStore.totals'], // its own end, not the class's closing brace
      [71, 73, 'function', 'createStore'],
    ],
  );
  assert.deepEqual(outlineText('', 'a.ts'), []);
});

test('invariant: every fixture at every limit covers each line exactly once', () => {
  const names = readdirSync(FIXTURES).map((f) => f.replace(/\.txt$/, ''));
  assert.ok(names.length >= 5);
  for (const name of names) {
    const text = fixture(name);
    for (const maxLines of [1, 2, 3, 5, 8, 13, 30, 80, 500]) chunkChecked(text, `fixtures/${name}`, { maxLines });
    const lines = text.split('\n').length;
    for (const [start, end] of [
      [1, 1],
      [2, Math.floor(lines / 2)],
      [Math.floor(lines / 3), lines],
      [5, 5 + 7],
    ] as const) {
      chunkChecked(text, `fixtures/${name}`, { range: { startLine: start, endLine: end }, maxLines: 10 });
    }
  }
});

test("invariant on real code: this repository's own source files", () => {
  const root = path.resolve(__dirname, '../../../src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|js|md|json)$/.test(name)) files.push(full);
    }
  };
  walk(root);
  assert.ok(files.length > 50);
  let named = 0;
  let total = 0;
  for (const file of files) {
    const chunks = chunkChecked(readFileSync(file, 'utf8'), path.relative(root, file));
    total += chunks.length;
    named += chunks.filter((c) => c.name !== undefined).length;
  }
  // The declarations are found: most chunks of this code base carry a name.
  assert.ok(named / total > 0.8, `${named} of ${total} chunks are named`);
});
