// The chat's MCP prompts and resource chips against the real @modelcontextprotocol/server-everything (stdio):
// the slash commands the panel would get, a prompt's messages as the user's turn, and resource chips (listed,
// from a template, binary, unknown) turned into the message the model gets, read through the real server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { McpManager } from '../../../src/mcp/manager';
import { splitAttachedMessage } from '../../../src/shared/attachedMessage';
import { buildAttachedMessage } from '../../../src/editor/codeToChat/readAttachments';
import { promptArguments, promptTurnText, resolvePromptCommand, slashCommandsOf } from '../../../src/editor/mcp/promptTurn';
import { resourceChip, targetOf } from '../../../src/editor/mcp/resourceChoices';
import { packageBin, stdioServer, waitForStatus } from '../../helpers/mcp/mcpHarness';

const manager = new McpManager({ registry: new ToolRegistry(), defaultStartTimeoutMs: 20_000 });
const signal = () => AbortSignal.timeout(20_000);

before(async () => {
  await manager.setServers([stdioServer('everything', packageBin('@modelcontextprotocol/server-everything'))]);
  await manager.start('everything');
  await waitForStatus(manager, 'everything', (s) => s.state === 'ready' && s.prompts.length > 0 && s.resources.length > 0);
});

after(async () => {
  await manager.dispose();
});

test('its prompts become slash commands; /everything.args-prompt with a city becomes the user\u2019s turn', async () => {
  const commands = slashCommandsOf(manager.prompts());
  for (const name of ['simple-prompt', 'args-prompt', 'resource-prompt']) assert.ok(commands.some((c) => c.command === `everything.${name}`), `${name}: ${commands.map((c) => c.command).join(', ')}`);
  assert.equal(commands.find((c) => c.command === 'everything.args-prompt')?.description, 'A prompt with two arguments, one required and one optional');

  const resolved = resolvePromptCommand('everything.args-prompt', manager.prompts(), manager.serverNames());
  assert.equal(resolved?.kind, 'prompt');
  const prompt = resolved.kind === 'prompt' ? resolved.prompt : assert.fail('not a prompt');
  assert.deepEqual(prompt.arguments.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
  // The user typed Paris and left the optional state empty: only city is sent.
  const args = promptArguments(prompt, ['Paris', '']);
  const result = await manager.getPrompt('everything', prompt.name, args, signal());
  assert.equal(promptTurnText('everything.args-prompt', result, 'Answer briefly.'), "What's weather in Paris?\n\nAnswer briefly.");
  const both = await manager.getPrompt('everything', prompt.name, promptArguments(prompt, ['Portland', 'Oregon']), signal());
  assert.equal(promptTurnText('everything.args-prompt', both), "What's weather in Portland, Oregon?");
});

test('a prompt with an embedded resource: both user messages, the resource inlined under its uri', async () => {
  const result = await manager.getPrompt('everything', 'resource-prompt', { resourceType: 'Text', resourceId: '2' }, signal());
  const text = promptTurnText('everything.resource-prompt', result);
  assert.match(text, /^This prompt includes the Text resource with id: 2\. Please analyze the following resource:\n\n\[resource demo:\/\/resource\/dynamic\/text\/2\]\nResource 2: This is a plaintext resource created at /);
  await assert.rejects(manager.getPrompt('everything', 'resource-prompt', { resourceType: 'Nope', resourceId: '2' }, signal()), /Invalid resourceType/);
});

test('resource chips are read through the server when the message is built', async () => {
  const architecture = manager.resources().find((r) => r.uri.endsWith('/architecture.md'));
  assert.ok(architecture, `listed: ${manager.resources().map((r) => r.uri).join(', ')}`);
  const listedTarget = targetOf({ server: 'everything', uri: architecture.uri }, manager.resources(), manager.resourceTemplates());
  const textTemplate = manager.resourceTemplates().find((t) => t.uriTemplate.includes('/dynamic/text/'));
  const blobTemplate = manager.resourceTemplates().find((t) => t.uriTemplate.includes('/dynamic/blob/'));
  assert.ok(listedTarget && textTemplate && blobTemplate, 'a listed resource and both templates');
  const fill = (template: typeof textTemplate, id: string) => {
    const values = Object.fromEntries(template.variables.map((v) => [v, id]));
    return resourceChip(`t-${id}`, { kind: 'template', template }, { uri: manager.expandTemplate(template, values), values });
  };
  const chips = [
    resourceChip('doc', listedTarget),
    fill(textTemplate, '3'),
    fill(blobTemplate, '4'),
    { id: 'missing', kind: 'mcpResource' as const, server: 'everything', uri: 'demo://resource/static/document/missing.md' },
  ];
  assert.equal(chips[1]!.uri, 'demo://resource/dynamic/text/3');

  const built = await buildAttachedMessage(
    'Summarize these.',
    chips,
    { readFile: async () => assert.fail('no files here'), readResource: (server, uri, s) => manager.readResource(server, uri, s) },
    signal(),
  );
  const split = splitAttachedMessage(built.message);
  assert.deepEqual(split?.labels, chips.map((c) => `everything:${c.uri}`));
  assert.equal(split?.text, 'Summarize these.');
  assert.ok(built.message.includes(`everything:${architecture.uri}\n\`\`\`markdown\n`), 'the markdown document, fenced as markdown');
  assert.match(built.message, /\neverything:demo:\/\/resource\/dynamic\/text\/3\n```\nResource 3: This is a plaintext resource created at /);
  assert.match(built.message, /\neverything:demo:\/\/resource\/dynamic\/blob\/4 \u2014 binary content \(text\/plain, \d+ bytes\), not included\n/);
  assert.match(built.message, /\neverything:demo:\/\/resource\/static\/document\/missing\.md \u2014 could not be read: .+\n/);
  assert.deepEqual(built.reads, []);
});
