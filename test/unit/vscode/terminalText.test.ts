import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeadTailBuffer, TerminalTextCleaner, collapseCarriageReturns } from '../../../src/editor/ports/terminalText';
import { cdCommand, samePath, terminalCommandLine } from '../../../src/editor/ports/cdCommand';

const ESC = '\u001b';

test('colour codes, shell-integration marks and titles are removed', () => {
  const cleaner = new TerminalTextCleaner();
  const raw = `${ESC}]633;C${ESC}\\${ESC}[32mPASS${ESC}[0m src/a.test.ts\r\n${ESC}]0;title\u0007done${ESC}[?25h\n${ESC}]633;D;0\u0007`;
  assert.equal(cleaner.feed(raw) + cleaner.flush(), 'PASS src/a.test.ts\r\ndone\n');
});

test('a sequence cut between chunks is held back until it completes', () => {
  const cleaner = new TerminalTextCleaner();
  const out = [cleaner.feed(`ok ${ESC}[3`), cleaner.feed('1mred'), cleaner.feed(`${ESC}]633;D`), cleaner.feed(';1\u0007 end'), cleaner.flush()];
  assert.equal(out.join(''), 'ok red end');
  assert.equal(out[0], 'ok ');
});

test('a lone ESC at the end is flushed away, stray control bytes dropped, tabs kept', () => {
  const cleaner = new TerminalTextCleaner();
  assert.equal(cleaner.feed(`a\tb\u0007c\u0000${ESC}`) + cleaner.flush(), 'a\tbc');
});

test('carriage-return redraws collapse to what the terminal finally shows', () => {
  assert.equal(collapseCarriageReturns('progress 10%\rprogress 50%\rprogress 100%\r\nnext\n'), 'progress 100%\nnext\n');
  assert.equal(collapseCarriageReturns('line\r'), 'line');
});

test('HeadTailBuffer keeps head and tail within the bound and says how much it left out', () => {
  const buffer = new HeadTailBuffer(100);
  for (let i = 0; i < 10_000; i++) buffer.push(`line ${i}\n`);
  const text = buffer.text();
  assert.ok(text.startsWith('line 0\nline 1\n'));
  assert.ok(text.endsWith('line 9999\n'));
  const omitted = Number(/\[… (\d+) characters of output omitted …\]/.exec(text)?.[1]);
  assert.equal(omitted, buffer.length - 100);
  assert.ok(text.length < 200);
  const small = new HeadTailBuffer(100);
  small.push('short');
  small.push(' output');
  assert.equal(small.text(), 'short output');
});

test('the terminal line cds into the directory only when the shell is elsewhere, quoted safely', () => {
  assert.equal(cdCommand("/tmp/it's here", 'linux'), `cd '/tmp/it'\\''s here'`);
  assert.equal(cdCommand('C:\\a "b"', 'win32'), 'cd "C:\\a ""b"""');
  assert.equal(terminalCommandLine('npm test', '/ws', '/ws/', 'linux'), 'npm test');
  assert.equal(terminalCommandLine('npm test', '/ws/pkg', '/ws', 'linux'), `cd '/ws/pkg' && npm test`);
  assert.equal(terminalCommandLine('npm test', '/ws', undefined, 'linux'), `cd '/ws' && npm test`);
  assert.equal(samePath('/a/b/', '/a/b', 'linux'), true);
});
