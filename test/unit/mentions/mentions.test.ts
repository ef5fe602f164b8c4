// `@` mentions: finding the word being typed, replacing it, ranking paths, and the candidates the host offers
// (never what .gitignore leaves out), plus the texts @folder and @problems attach.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionAtCursor, rankPaths, replaceMention } from '../../../src/shared/mentions';
import { folderListing, foldersOf, mentionCandidates, problemsSummary, problemsText, visiblePaths } from '../../../src/editor/mentions/mentionCandidates';

test('the @word at the caret: at the start, after a space, empty right after @; none inside an e-mail or after a space', () => {
  assert.deepEqual(mentionAtCursor('@app', 4), { start: 0, query: 'app' });
  assert.deepEqual(mentionAtCursor('look at @src/ut', 15), { start: 8, query: 'src/ut' });
  assert.deepEqual(mentionAtCursor('see @', 5), { start: 4, query: '' });
  assert.deepEqual(mentionAtCursor('fix @util please', 9), { start: 4, query: 'util' });
  assert.equal(mentionAtCursor('mail me@example.com', 19), undefined);
  assert.equal(mentionAtCursor('@app done', 9), undefined);
  assert.equal(mentionAtCursor('no mention', 10), undefined);
});

test('choosing replaces the typed @word with @label and a space, keeping the rest', () => {
  assert.deepEqual(replaceMention('fix @ut now', 4, 7, 'src/util.ts'), { text: 'fix @src/util.ts now', cursor: 17 });
  assert.deepEqual(replaceMention('@pro', 0, 4, 'problems'), { text: '@problems ', cursor: 10 });
});

test('ranking: name prefix, then name contains, then path contains, then letters in order; shorter first', () => {
  const paths = ['src/utils/format.ts', 'src/util.ts', 'test/unit/util.test.ts', 'src/app/outer.ts', 'docs/UTILITIES.md', 'src/main.ts'];
  assert.deepEqual(rankPaths(paths, 'util', 10), ['src/util.ts', 'docs/UTILITIES.md', 'test/unit/util.test.ts', 'src/utils/format.ts']);
  assert.deepEqual(rankPaths(paths, 'smn', 10), ['src/main.ts']);
  assert.equal(rankPaths(paths, '', 3).length, 3);
  assert.deepEqual(rankPaths(paths, 'zzz', 10), []);
});

test('.gitignore: ignored files and everything under an ignored folder are never offered', () => {
  const all = ['src/a.ts', 'dist/bundle.js', 'logs/x.log', 'src/gen/out.ts', 'README.md', '.git/config', 'keep.log'];
  const visible = visiblePaths(all, 'dist/\n*.log\n!keep.log\nsrc/gen/\n');
  assert.deepEqual(visible, ['src/a.ts', 'README.md', 'keep.log']);
  assert.deepEqual(foldersOf(visible), ['src/']);
});

test('candidates: the fixed mentions that match, then files and folders, then symbols; folders lead when the query names one', () => {
  const files = ['src/app.ts', 'src/problem.ts', 'test/app.test.ts'];
  const pro = mentionCandidates({ query: 'pro', files, problems: '1 error, 0 warnings' });
  assert.deepEqual(pro.map((c) => [c.kind, c.label]), [['problems', 'problems'], ['file', 'src/problem.ts']]);
  assert.equal(pro[0]!.detail, '1 error, 0 warnings');
  const src = mentionCandidates({ query: 'src', files });
  assert.deepEqual(src[0], { kind: 'folder', label: 'src/', detail: 'folder', ref: 'src/' });
  const sym = mentionCandidates({ query: 'app', files, symbols: [{ name: 'startApp', kind: 'function', path: 'src/app.ts', startLine: 3, endLine: 9 }] });
  assert.deepEqual(sym.at(-1), { kind: 'symbol', label: 'startApp', detail: 'function in src/app.ts:3', ref: 'src/app.ts:3-9' });
  assert.ok(mentionCandidates({ query: 'ter', files }).some((c) => c.kind === 'terminal'));
});

test('@folder lists its files (capped with a count); @problems puts errors first', () => {
  assert.equal(folderListing(['src/b.ts', 'src/a.ts', 'test/c.ts'], 'src/'), '2 files in src/:\nsrc/a.ts\nsrc/b.ts');
  assert.match(folderListing(['a/1', 'a/2', 'a/3'], 'a/', 2), /\n… and 1 more$/);
  const problems = [
    { path: 'src/b.ts', line: 4, column: 2, severity: 'warning' as const, message: 'unused x', source: 'ts', code: '6133' },
    { path: 'src/a.ts', line: 9, column: 1, severity: 'error' as const, message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322' },
  ];
  assert.equal(problemsText(problems), "src/a.ts:9:1 error: Type 'string' is not assignable to type 'number'. (ts 2322)\nsrc/b.ts:4:2 warning: unused x (ts 6133)");
  assert.equal(problemsSummary(problems), '1 error, 1 warning');
  assert.match(problemsText([]), /^No problems/);
});
