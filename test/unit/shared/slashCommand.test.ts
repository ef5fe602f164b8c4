// Slash commands (MCP prompts) in the message box and the protocol that carries them: parsing a sent message,
// what the suggestion list matches while typing, and the schemas of the new host and panel messages and chips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySlashCommand, matchSlashCommands, parseSlashCommand, slashQuery } from '../../../src/shared/slashCommand';
import { initialChatState, reduceAll, reduceChat } from '../../../src/shared/chatState';
import { isResourceAttachment, parseHostMessage, parseWebviewMessage, type Attachment, type ResourceAttachment } from '../../../src/shared/protocol';

test('a sent message is a command only when it starts with /word; the text after it is kept', () => {
  assert.deepEqual(parseSlashCommand('/everything.args-prompt'), { command: 'everything.args-prompt', rest: '' });
  assert.deepEqual(parseSlashCommand('/everything.args-prompt  in metric units\nplease  '), { command: 'everything.args-prompt', rest: 'in metric units\nplease' });
  assert.deepEqual(parseSlashCommand('/fix\tnow'), { command: 'fix', rest: 'now' });
  for (const text of ['', '/', ' /everything.x', 'see /everything.x', '/etc/hosts is wrong', '//comment', '/ spaced']) {
    assert.equal(parseSlashCommand(text), undefined, JSON.stringify(text));
  }
});

test('the suggestion query is the first word after the slash while the caret is in it', () => {
  assert.equal(slashQuery('/', 1), '');
  assert.equal(slashQuery('/ever', 5), 'ever');
  assert.equal(slashQuery('/ever', 3), 'ev', 'up to the caret');
  assert.equal(slashQuery('/everything.simple-prompt more text', 35), undefined, 'typing the rest closes the list');
  assert.equal(slashQuery('/everything.simple-prompt more', 25), 'everything.simple-prompt', 'back in the word opens it again');
  assert.equal(slashQuery('hello /ever', 11), undefined, 'only at the start of the message');
  assert.equal(slashQuery('/usr/bin', 8), undefined, 'a path is not a command');
  assert.equal(slashQuery('/x', 0), undefined);
});

test('matching ranks the whole command, then a word of it, then anywhere; the host order breaks ties', () => {
  const commands = [
    { command: 'everything.simple-prompt' },
    { command: 'everything.args-prompt', description: 'two arguments' },
    { command: 'docs.search' },
    { command: 'argsy.thing' },
  ];
  assert.deepEqual(matchSlashCommands('', commands).map((c) => c.command), commands.map((c) => c.command));
  assert.deepEqual(matchSlashCommands('ARGS', commands).map((c) => c.command), ['argsy.thing', 'everything.args-prompt']);
  assert.deepEqual(matchSlashCommands('prompt', commands).map((c) => c.command), ['everything.simple-prompt', 'everything.args-prompt']);
  assert.deepEqual(matchSlashCommands('ple-pr', commands).map((c) => c.command), ['everything.simple-prompt']);
  assert.deepEqual(matchSlashCommands('nothing', commands), []);
  assert.equal(matchSlashCommands('', commands, 2).length, 2);
  // The matched entries are the host's objects, descriptions and all.
  assert.equal(matchSlashCommands('everything.args', commands)[0]?.description, 'two arguments');
});

test('picking replaces the typed word and keeps what follows', () => {
  assert.deepEqual(applySlashCommand('/ar', 'everything.args-prompt'), { text: '/everything.args-prompt ', caret: 24 });
  assert.deepEqual(applySlashCommand('/ar   in Celsius', 'everything.args-prompt'), { text: '/everything.args-prompt in Celsius', caret: 24 });
  assert.deepEqual(applySlashCommand('/\nsecond line', 'docs.search'), { text: '/docs.search \nsecond line', caret: 13 });
});

test('mcpOffers carries the prompts and the resource count; bad entries are refused', () => {
  const ok = { type: 'mcpOffers', prompts: [{ command: 'everything.args-prompt', title: 'Arguments Prompt', description: 'A prompt' }, { command: 'a.b' }], resources: 9 };
  assert.equal(parseHostMessage(ok).ok, true);
  assert.equal(parseHostMessage({ type: 'mcpOffers', prompts: [], resources: 0 }).ok, true);
  const bad: unknown[] = [
    { type: 'mcpOffers', prompts: [{ command: 'has space' }], resources: 0 },
    { type: 'mcpOffers', prompts: [{ command: 'a/b' }], resources: 0 },
    { type: 'mcpOffers', prompts: [{ command: '' }], resources: 0 },
    { type: 'mcpOffers', prompts: [{ command: 'a.b', description: 'x'.repeat(2001) }], resources: 0 },
    { type: 'mcpOffers', prompts: [], resources: -1 },
    { type: 'mcpOffers', prompts: [], resources: 1.5 },
    { type: 'mcpOffers', prompts: [] },
  ];
  for (const message of bad) assert.equal(parseHostMessage(message).ok, false, JSON.stringify(message).slice(0, 120));
  assert.equal(parseWebviewMessage({ type: 'runCommand', command: 'attachMcpResource' }).ok, true);
});

test('resource chips travel in the state next to code chips; the same resource is added once', () => {
  const resource = (id: string, uri = 'demo://resource/static/document/architecture.md'): ResourceAttachment => ({ id, kind: 'mcpResource', server: 'everything', uri, name: 'architecture.md' });
  const code: Attachment = { id: 'c', path: 'src/a.ts', file: '/ws/src/a.ts' };
  let s = reduceAll(initialChatState(), [
    { type: 'attachment_add', attachment: code },
    { type: 'attachment_add', attachment: resource('r1') },
  ]);
  assert.equal(reduceChat(s, { type: 'attachment_add', attachment: resource('r2') }), s, 'the same server and uri again: nothing new');
  s = reduceChat(s, { type: 'attachment_add', attachment: { ...resource('r3'), server: 'other' } });
  s = reduceChat(s, { type: 'attachment_add', attachment: resource('r4', 'demo://resource/dynamic/text/3') });
  assert.deepEqual(s.attachments?.map((a) => a.id), ['c', 'r1', 'r3', 'r4']);
  assert.deepEqual(s.attachments?.map(isResourceAttachment), [false, true, true, true]);
  assert.equal(parseHostMessage({ type: 'snapshot', seq: 4, state: s }).ok, true);
  const bad: unknown[] = [
    { ...resource('x'), server: '' },
    { ...resource('x'), uri: '' },
    { ...resource('x'), kind: 'file' },
    { id: 'x', kind: 'mcpResource', uri: 'demo://a' },
  ];
  for (const attachment of bad) assert.equal(parseHostMessage({ type: 'events', base: 0, seq: 1, events: [{ type: 'attachment_add', attachment }] }).ok, false, JSON.stringify(attachment));
});
