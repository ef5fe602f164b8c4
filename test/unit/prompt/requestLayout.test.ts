// The request layout's cache rule, checked on the bytes the two wire formats send (the providers' own renderers):
// a round only appends; the working context rides on the newest message and stays where it was sent; the system
// prompt and the tool list are the same bytes across rounds and across a compression; a side request that follows
// a chat request reuses it byte for byte; attached code and images go where they always went.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';
import {
  attachToTail,
  chatRequest,
  followUpRequest,
  requestTools,
  splitRequest,
  standaloneRequest,
  tailBlock,
} from '../../../src/core/prompt/requestLayout';
import { composeSystemPrompt } from '../../../src/core/prompt/systemPromptBuilder';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import { WorkingContextTail } from '../../../src/core/workingContext/workingContext';
import { createContextManager } from '../../../src/core/compression/contextManager';
import type { ImagePart } from '../../../src/core/images/imagePart';
import { toOpenAIMessages, toOpenAITools } from '../../../src/providers/openaiMessages';
import { toOllamaMessages, toOllamaTools } from '../../../src/providers/ollamaMessages';
import { GarbageModel } from '../../helpers/compression/compressionModels';
import { scriptedSession } from '../../helpers/compression/sessionFixture';

const signal = new AbortController().signal;

/** Each message and tool exactly as a wire format sends it (its JSON, keys in wire order). */
const WIRES = {
  openai: (messages: readonly ChatMessage[], tools: readonly ToolDefinition[]) => ({
    messages: toOpenAIMessages(messages).map((m) => JSON.stringify(m)),
    tools: toOpenAITools(tools).map((t) => JSON.stringify(t)),
  }),
  ollama: (messages: readonly ChatMessage[], tools: readonly ToolDefinition[]) => ({
    messages: toOllamaMessages(messages).map((m) => JSON.stringify(m)),
    tools: toOllamaTools(tools).map((t) => JSON.stringify(t)),
  }),
};

function startsWith(longer: readonly string[], shorter: readonly string[]): boolean {
  return shorter.length <= longer.length && shorter.every((m, i) => m === longer[i]);
}

function session() {
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const tools = registry.definitions();
  const system = composeSystemPrompt({ system: { os: 'Linux', shell: '/bin/sh', workspaceFolders: ['/w'] }, loopBreakingTools: true, toolProtocol: 'native', tools }).text;
  return { tools, system };
}

const image: ImagePart = { mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'screen.png' };

for (const [wire, render] of Object.entries(WIRES)) {
  test(`${wire}: a round only appends, and the working context rides on the newest message`, () => {
    const { tools, system } = session();
    const tracker = new ContextTracker();
    const working = new WorkingContextTail();
    const history: ChatMessage[] = [{ role: 'user', content: 'Fix the port in config.json.' }];
    // The turn's first request: the mode's note and the working context (here the retrieved code) with the user's message.
    const first = tailBlock(['# Mode: Plan', working.turnStart(tracker.snapshot(), '# Retrieved from the workspace index\nconfig.json:1 {"port": 80}')]);
    assert.equal(attachToTail(history, first!), history[0]);
    const one = render(chatRequest(system, history), requestTools('native', tools));

    history.push({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'config.json' } }] });
    history.push({ role: 'tool', content: '{"port": 80}', toolCallId: 'c1', toolName: 'read_file' });
    tracker.fileRead('config.json');
    const update = working.update(tracker.snapshot());
    assert.ok(update, 'the read is news to the model');
    assert.equal(attachToTail(history, update), history[2], 'the update rides on the newest message, the tool result');
    const two = render(chatRequest(system, history), requestTools('native', tools));

    assert.equal(two.messages[0], one.messages[0], 'the system prompt is the same bytes');
    assert.ok(!two.messages[0]!.includes('Retrieved from the workspace index') && !two.messages[0]!.includes('Working context'), 'the system prompt carries no working context');
    assert.deepEqual(two.tools, one.tools, 'the tool list is the same bytes');
    assert.ok(startsWith(two.messages, one.messages), 'the second request starts with the first, byte for byte');
    assert.match(one.messages[1]!, /Fix the port in config\.json\.\\n\\n# Mode: Plan\\n\\n# Retrieved from the workspace index/, 'the user’s words, then the note, then the working context');
    assert.match(two.messages.at(-1)!, /# Working context \(update\)\\nRead: config\.json/);
    assert.equal(two.messages.length, one.messages.length + 2);
  });

  test(`${wire}: the system prompt and the tools stay the same bytes across a compression, whose summary opens the first message`, async () => {
    const { tools, system } = session();
    const history = scriptedSession({ messages: 60, seed: 7 });
    const manager = createContextManager({ provider: new GarbageModel(), model: 'm', window: 8192, tools: () => tools, compressionModel: null, settings: { minAnswerTokens: 500 } });
    const before = render(chatRequest(system, history.slice(0, 4)), tools);
    const prepared = await manager.prepareMessages(chatRequest(system, history), signal, tools);
    assert.ok(manager.status().compressions >= 1 && manager.status().evictedMessages > 0, 'the window forced a compression that evicted old rounds');
    const after = render(prepared, tools);
    assert.equal(after.messages[0], before.messages[0], 'the system prompt is the same bytes after the compression');
    assert.deepEqual(after.tools, before.tools, 'so is the tool list');
    assert.equal(prepared[0]!.content, system);
    assert.match(prepared[1]!.content, /^# Session summary/, 'the running summary opens the first message after the system prompt');
    assert.ok(history.every((m) => !m.content.startsWith('# Session summary')), 'the history itself is not changed');
    // The next round appends to the compressed request.
    history.push({ role: 'user', content: 'And now the tests.' });
    const next = render(await manager.prepareMessages(chatRequest(system, history), signal, tools), tools);
    assert.ok(startsWith(next.messages, after.messages), 'after the break, rounds append again');
  });

  test(`${wire}: a side request that follows the chat request reuses its bytes and its tools`, () => {
    const { tools, system } = session();
    const history = scriptedSession({ messages: 12, seed: 3 });
    const prior = { messages: chatRequest(system, history), tools };
    const ask: ChatMessage = { role: 'user', content: '[Context compression request — not a new task]\nSummarise message 3.' };
    const side = followUpRequest(prior, [ask]);
    const [held, sent] = [render(prior.messages, prior.tools), render(side.messages, side.tools)];
    assert.ok(startsWith(sent.messages, held.messages), 'the request the server holds is its prefix');
    assert.equal(sent.messages.length, held.messages.length + 1);
    assert.deepEqual(sent.tools, held.tools, 'with the same tools, in the same order');
    assert.equal(prior.messages.length, history.length + 1, 'the chat request itself is left as it was');

    // One that stands alone: its fixed system prompt first, everything that varies in one user message.
    const a = render(standaloneRequest('You summarise files.', 'File a.ts'), []);
    const b = render(standaloneRequest('You summarise files.', 'File b.ts'), []);
    assert.equal(a.messages.length, 2);
    assert.equal(a.messages[0], b.messages[0], 'two side requests of one kind share their system prompt');
    assert.notEqual(a.messages[1], b.messages[1]);
  });
}

test('attached code goes before the user’s words and the context after them; images stay on their message', () => {
  const user: ChatMessage = { role: 'user', content: 'Why does this fail?', attachments: [{ label: 'src/port.ts:3-4', languageId: 'ts', text: 'const PORT = 80;' }], images: [image] };
  const history: ChatMessage[] = [user];
  attachToTail(history, '# Working context\nFiles you read: config.json');
  const [openai] = toOpenAIMessages(chatRequest('sys', history)).slice(1) as Array<{ content: Array<{ type: string; text?: string }> }>;
  const text = openai!.content[0]!.text!;
  const [code, words, context] = ['const PORT = 80;', 'Why does this fail?', '# Working context'].map((s) => text.indexOf(s));
  assert.ok(code! >= 0 && code! < words! && words! < context!, 'attached code, the user’s words, then the context');
  assert.deepEqual(openai!.content.map((p) => p.type), ['text', 'image_url'], 'OpenAI-compatible: the text, then the image, on the user message');
  const [ollama] = toOllamaMessages(chatRequest('sys', history)).slice(1);
  assert.deepEqual(ollama!.images, [image.data], 'Ollama: the image on the same message');
  assert.equal(ollama!.content, text, 'both wires send the same text');

  // A tool's image: on the tool message for Ollama; after the run of results as a user message for OpenAI.
  const withTool: ChatMessage[] = [
    { role: 'user', content: 'Look at the screenshot.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'screen.png' } }] },
    { role: 'tool', content: 'screen.png (image)', toolCallId: 'c1', toolName: 'read_file', images: [image] },
  ];
  attachToTail(withTool, '# Working context (update)\nRead: screen.png');
  const sent = toOpenAIMessages(chatRequest('sys', withTool)) as Array<{ role: string; content: unknown }>;
  assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'user']);
  assert.match(String(sent[3]!.content), /screen\.png \(image\)\n\n# Working context \(update\)/, 'the context follows the result it rides on');
  assert.deepEqual(toOllamaMessages(chatRequest('sys', withTool))[3]!.images, [image.data]);
});

test('the tail needs a message no request has carried; the parts a request is made of', () => {
  assert.equal(attachToTail([], 'x'), undefined, 'no history: nothing to carry it');
  const onlySystem: ChatMessage[] = [{ role: 'system', content: 'sys' }];
  assert.equal(attachToTail(onlySystem, 'x'), undefined, 'never the system prompt');
  assert.equal(onlySystem[0]!.context, undefined);
  const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];
  attachToTail(history, 'first');
  attachToTail(history, 'second');
  assert.equal(history[0]!.context, 'first\n\nsecond', 'later blocks follow the earlier ones');

  assert.equal(tailBlock([undefined, '']), undefined, 'nothing to tell');
  assert.equal(tailBlock(['# Mode: Ask', undefined, 'ctx']), '# Mode: Ask\n\nctx');

  const tools: ToolDefinition[] = [{ name: 'read_file', description: 'Read.', parameters: { type: 'object' } }];
  assert.equal(requestTools('native', tools), tools, 'native: the definitions themselves (the same array, so caches by identity hold)');
  assert.deepEqual(requestTools('xml', tools), [], 'xml: none, the system prompt lists them');

  const request = chatRequest('sys', history);
  const { system, history: rest } = splitRequest(request);
  assert.deepEqual(system, { role: 'system', content: 'sys' });
  assert.deepEqual(rest, history);
  assert.deepEqual(splitRequest(history), { system: undefined, history });
});
