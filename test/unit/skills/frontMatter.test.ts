import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listField, parseFrontMatter, textField } from '../../../src/core/skills/frontMatter';
import { promptFileOf, promptFileText } from '../../../src/core/promptFiles/promptFiles';

test('front matter: key: value lines, quotes, [lists], CRLF and a BOM; the body follows', () => {
  const fm = parseFrontMatter('\uFEFF---\r\nname: deploy\r\nDescription: "Ship it: safely"\r\ntools: [read_file, \'search_files\']\r\n# a comment\r\n---\r\n# Body\r\ntext\r\n');
  assert.equal(textField(fm, 'name'), 'deploy');
  assert.equal(textField(fm, 'description'), 'Ship it: safely');
  assert.deepEqual(listField(fm, 'tools'), ['read_file', 'search_files']);
  assert.equal(fm.body, '# Body\r\ntext\r\n');
});

test('no front matter: the whole text is the body; an unclosed block is body too', () => {
  assert.deepEqual(parseFrontMatter('just text'), { fields: {}, body: 'just text' });
  assert.deepEqual(parseFrontMatter('---\nname: x\nno end').fields, {});
});

test('prompt files: mode (edit runs as agent, unknown ignored), placeholders take the typed text, else it is appended', () => {
  const p = promptFileOf('explain', '/w/.github/prompts/explain.prompt.md', '---\ndescription: Explain\nmode: edit\ntools: a, b\n---\nExplain ${input:file:which file} and $ARGUMENTS.\n');
  assert.equal(p.mode, 'agent');
  assert.deepEqual(p.tools, ['a', 'b']);
  assert.equal(promptFileText(p, 'x.ts'), 'Explain x.ts and x.ts.');
  const plain = promptFileOf('review', '/w/r.md', '---\nmode: nonsense\n---\nReview the diff.');
  assert.equal(plain.mode, undefined);
  assert.equal(promptFileText(plain, 'focus on tests'), 'Review the diff.\n\nfocus on tests');
  assert.throws(() => promptFileText(promptFileOf('e', '/w/e.md', '---\ndescription: x\n---\n')), /the prompt file \/e \(\/w\/e\.md\) is empty/);
});

test('front matter: indented lines continue a value; > and | blocks fold into one line', () => {
  const fm = parseFrontMatter('---\nname: a\ndescription: >\n  Long text\n  on two lines\nother: x\n  y\n---\nbody');
  assert.equal(textField(fm, 'description'), 'Long text on two lines');
  assert.equal(textField(fm, 'other'), 'x y');
  assert.equal(textField(fm, 'name'), 'a');
});
