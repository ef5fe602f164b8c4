// The write guard's placeholder detector: lazy "left out" comments in every common comment syntax are found;
// spread syntax, varargs, Python's Ellipsis, prose ellipses and ordinary comments in real code are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { commentSyntaxesFor, findPlaceholder, isPlaceholderLine } from '../../../src/core/tools/builtin/omissionPlaceholders';

const POSITIVES: Array<[string, string]> = [
  ['app.js', '// ... rest of the code unchanged ...'],
  ['app.js', '// ... rest of the code ...'],
  ['app.js', '  // ...'],
  ['app.js', '// …'],
  ['app.js', '// existing code here'],
  ['app.js', '// ... existing code ...'],
  ['app.js', '// Existing code remains the same'],
  ['app.js', '// rest of file unchanged'],
  ['app.js', '// (rest of the file remains unchanged)'],
  ['app.js', '/* unchanged */'],
  ['app.js', '/* ... */'],
  ['app.js', '/* ... other methods ... */'],
  ['app.ts', '// Same as before'],
  ['app.ts', '// REST OF THE IMPLEMENTATION STAYS THE SAME'],
  ['app.ts', '// keep existing imports'],
  ['app.tsx', '{/* ... rest of the component ... */}'],
  ['main.go', '// other functions remain unchanged'],
  ['main.rs', '// ... remaining code omitted ...'],
  ['Main.java', '    // ... (previous methods unchanged)'],
  ['lib.c', '/* rest of the code here */'],
  ['style.css', '/* ... existing styles ... */'],
  ['app.py', '# ...'],
  ['app.py', '# ... rest of the code ...'],
  ['app.py', '    # existing code here'],
  ['app.py', '# Rest of the class remains the same'],
  ['app.py', '# omitted for brevity'],
  ['deploy.sh', '# ... rest of script unchanged'],
  ['config.yaml', '# ... other fields ...'],
  ['schema.sql', '-- ... rest of the tables ...'],
  ['schema.sql', '-- existing code'],
  ['init.lua', '-- rest of the config remains the same'],
  ['index.html', '<!-- ... -->'],
  ['index.html', '<!-- rest of the markup unchanged -->'],
  ['README.md', '<!-- ... existing content ... -->'],
  ['App.vue', '<!-- existing template here -->'],
  ['App.vue', '// ... rest of the script'],
  ['paper.tex', '% ... rest of the section ...'],
  ['config.el', ';; ... rest of the file unchanged'],
  ['index.php', '# ... existing code ...'],
  ['unknown.xyz', '// ... rest of the code ...'],
];

test('finds placeholders in each comment syntax, any case', () => {
  for (const [file, line] of POSITIVES) {
    assert.equal(isPlaceholderLine(line, commentSyntaxesFor(file)), true, `${file}: ${line}`);
    assert.equal(isPlaceholderLine(line.toUpperCase(), commentSyntaxesFor(file)), true, `${file}: ${line.toUpperCase()}`);
  }
});

const NEGATIVES: Array<[string, string]> = [
  ['a.js', 'const merged = { ...defaults, ...options };'],
  ['a.js', 'function f(...args) { return g(...args); }'],
  ['a.js', '  ...rest'],
  ['a.ts', 'type T = [...Head, ...Tail];'],
  ['a.js', '// Spread the options: {...a, ...b} wins over defaults'],
  ['a.js', '// Wait for the server... then retry three times with backoff and log each attempt'],
  ['a.js', ' * Loading... (shown while the list is fetched)'],
  ['a.js', ' * ...'],
  ['a.js', '// TODO: handle the rest of the cases'],
  ['a.js', '// eslint-disable-next-line no-unused-vars'],
  ['a.js', '// Other handlers use default behavior'],
  ['a.js', '// The existing code path already validates the input before it reaches us'],
  ['a.py', 'def stub(self) -> None: ...'],
  ['a.py', '    ...'],
  ['a.py', 'x = arr[..., 0]'],
  ['a.py', 'def f(*args, **kwargs):'],
  ['a.py', '# noqa: E501'],
  ['a.py', '#!/usr/bin/env python3'],
  ['a.c', 'int printf(const char *fmt, ...);'],
  ['a.java', 'void log(String... parts) {'],
  ['a.md', 'Wait a moment... then press Enter.'],
  ['a.md', '...'],
  ['a.md', '# Getting started'],
  ['a.sql', 'SELECT * FROM t WHERE a BETWEEN 1 AND 3; -- the range is inclusive'],
  ['a.go', 'fmt.Println(items...)'],
  ['a.rb', 'def call(*args, &block)'],
];

test('leaves spread syntax, varargs, Ellipsis, prose and ordinary comments alone', () => {
  for (const [file, line] of NEGATIVES) {
    assert.equal(isPlaceholderLine(line, commentSyntaxesFor(file)), false, `${file}: ${line}`);
  }
});

test('findPlaceholder reports the line, and ignores a placeholder the old text already had', () => {
  const lazy = 'import x from "x";\nfunction a() {}\n// ... rest of the code unchanged ...\n';
  assert.deepEqual(findPlaceholder(lazy, undefined, 'app.js'), { line: 3, text: '// ... rest of the code unchanged ...' });
  const old = 'function a() {\n  // ...\n}\n';
  assert.equal(findPlaceholder('function a() {\n  // ...\n  return 1;\n}\n', old, 'app.js'), undefined, 'kept from the old text');
  assert.equal(findPlaceholder('  //   ...  \r\n', old, 'app.js'), undefined, 'whitespace and line endings do not matter');
  assert.deepEqual(findPlaceholder('x\r\n# ...\r\n', 'x\n', 'a.py'), { line: 2, text: '# ...' });
  assert.equal(findPlaceholder('# ...\n', undefined, 'a.js'), undefined, '# is not a comment in JavaScript');
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|tsx|js|mjs|md)$/.test(name) ? [full] : [];
  });
}

test("no false positive in this project's own code and docs (spread syntax, ellipses in prose)", () => {
  const root = path.resolve(__dirname, '../../..');
  const files = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'webview-ui')), path.join(root, 'README.md'), path.join(root, 'ARCHITECTURE.md')];
  const withEllipsis = files.filter((f) => readFileSync(f, 'utf8').includes('...'));
  assert.ok(withEllipsis.length > 20, `the corpus has real uses of "..." (${withEllipsis.length} files)`);
  const flagged = files.flatMap((f) => {
    const hit = findPlaceholder(readFileSync(f, 'utf8'), undefined, f);
    return hit ? [`${path.relative(root, f)}:${hit.line}: ${hit.text}`] : [];
  });
  assert.deepEqual(flagged, []);
});
