// MCP prompts as slash commands, the host's pure part: which commands the panel gets, what a sent `/name`
// refers to, the arguments sent, and the user's turn a prompt's messages become.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpPromptInfo } from '../../../../src/mcp/types';
import { notOfferedMessage, promptArguments, promptTurnText, resolvePromptCommand, slashCommandsOf } from '../../../../src/editor/mcp/promptTurn';
import { parseHostMessage } from '../../../../src/shared/protocol';

const prompt = (server: string, name: string, extra: Partial<McpPromptInfo> = {}): McpPromptInfo => ({ server, name, arguments: [], ...extra });

const ARGS = prompt('everything', 'args-prompt', {
  title: 'Arguments Prompt',
  description: 'A prompt with two arguments,\n  one required and one optional',
  arguments: [
    { name: 'city', description: 'Name of the city', required: true },
    { name: 'state', description: 'Name of the state', required: false },
  ],
});

test('each prompt becomes /server.prompt with its title and a one-line description; untypeable names are left out', () => {
  const commands = slashCommandsOf([
    ARGS,
    prompt('everything', 'simple-prompt', { title: 'simple-prompt' }),
    prompt('everything', 'has space'),
    prompt('everything', 'a/b'),
    prompt('everything', 'args-prompt'),
    prompt('docs', 'long', { description: 'x'.repeat(1000) }),
  ]);
  assert.deepEqual(commands.map((c) => c.command), ['everything.args-prompt', 'everything.simple-prompt', 'docs.long']);
  assert.deepEqual(commands[0], { command: 'everything.args-prompt', title: 'Arguments Prompt', description: 'A prompt with two arguments, one required and one optional' });
  assert.equal(commands[1]!.title, undefined, 'a title that only repeats the name is dropped');
  assert.equal(commands[2]!.description!.length, 300);
  assert.ok(commands[2]!.description!.endsWith('…'));
  // What the panel is sent passes the protocol's schema.
  assert.equal(parseHostMessage({ type: 'mcpOffers', prompts: commands, resources: 0 }).ok, true);
});

test('a sent /name is an offered prompt, a prompt its configured server cannot run now, or ordinary text', () => {
  const prompts = [ARGS, prompt('my.docs', 'search')];
  const servers = ['everything', 'my', 'my.docs', 'stopped'];
  assert.deepEqual(resolvePromptCommand('everything.args-prompt', prompts, servers), { kind: 'prompt', prompt: ARGS });
  assert.equal(resolvePromptCommand('my.docs.search', prompts, servers)?.kind, 'prompt', 'server names may contain dots');
  assert.deepEqual(resolvePromptCommand('my.docs.other', prompts, servers), { kind: 'notOffered', server: 'my.docs', name: 'other' }, 'the longest server name wins');
  assert.deepEqual(resolvePromptCommand('stopped.review', prompts, servers), { kind: 'notOffered', server: 'stopped', name: 'review' });
  for (const command of ['help', 'everything', 'everything.', 'unknown.prompt', 'Everything.args-prompt']) {
    assert.equal(resolvePromptCommand(command, prompts, servers), undefined, command);
  }
});

test('why a command cannot run: the server state with the next step, or the prompts it does have', () => {
  assert.equal(
    notOfferedMessage('everything', 'args-prompt', 'stopped', []),
    '/everything.args-prompt: the MCP server "everything" is not running. Start it in the MCP Servers view, then send the message again.',
  );
  assert.match(notOfferedMessage('everything', 'x', 'blocked', []), /is blocked \(it needs your consent or a trusted workspace\)/);
  assert.match(notOfferedMessage('everything', 'x', 'failed', []), /is not running \(it failed; see its log\)/);
  assert.match(notOfferedMessage('everything', 'x', 'starting', []), /is still starting\. Send the message again in a moment\.$/);
  assert.equal(
    notOfferedMessage('everything', 'nope', 'ready', ['simple-prompt', 'args-prompt']),
    '/everything.nope: the MCP server "everything" has no prompt "nope". Its prompts: /everything.simple-prompt, /everything.args-prompt.',
  );
  assert.match(notOfferedMessage('docs', 'nope', 'ready', []), /It offers no prompts\.$/);
});

test('arguments: values trimmed; an optional one left empty is not sent at all', () => {
  assert.deepEqual(promptArguments(ARGS, ['  Paris ', '']), { city: 'Paris' });
  assert.deepEqual(promptArguments(ARGS, ['Portland', 'Oregon']), { city: 'Portland', state: 'Oregon' });
  assert.deepEqual(promptArguments(prompt('s', 'p'), []), {});
});

test('user messages become the turn, joined; text typed after the command comes last', () => {
  const result = { messages: [{ role: 'user' as const, text: "What's weather in Paris?" }] };
  assert.equal(promptTurnText('everything.args-prompt', result), "What's weather in Paris?");
  assert.equal(promptTurnText('everything.args-prompt', result, '  Answer in Celsius. '), "What's weather in Paris?\n\nAnswer in Celsius.");
  const two = {
    description: 'ignored',
    messages: [
      { role: 'user' as const, text: 'This prompt includes the Text resource with id: 1. Please analyze the following resource:\n' },
      { role: 'user' as const, text: '[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext resource' },
      { role: 'user' as const, text: '   ' },
    ],
  };
  assert.equal(
    promptTurnText('everything.resource-prompt', two),
    'This prompt includes the Text resource with id: 1. Please analyze the following resource:\n\n[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext resource',
  );
});

test('assistant messages from the prompt are written out as the prompt\u2019s examples, in order, with who says what', () => {
  const text = promptTurnText('style.review', {
    messages: [
      { role: 'user', text: 'Review: let x = 1' },
      { role: 'assistant', text: 'Prefer const: `const x = 1`.' },
      { role: 'user', text: 'Now review my diff in the same style.' },
    ],
  });
  assert.equal(
    text,
    [
      'The MCP prompt /style.review sets up this exchange; the assistant parts are examples from the prompt, not your earlier replies.',
      'User:\nReview: let x = 1',
      'Assistant (written by the prompt):\nPrefer const: `const x = 1`.',
      'User:\nNow review my diff in the same style.',
    ].join('\n\n'),
  );
});

test('a prompt with no messages (or only empty ones) is an error, not an empty turn', () => {
  assert.throws(() => promptTurnText('everything.empty', { messages: [] }), /the prompt \/everything\.empty returned no messages/);
  assert.throws(() => promptTurnText('everything.empty', { messages: [{ role: 'assistant', text: ' ' }] }), /returned no messages/);
});
