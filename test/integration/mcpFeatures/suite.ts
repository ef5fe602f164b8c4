// Everything server-everything offers beyond plain tools, exercised through McpManager exactly as the editor
// and the CLI use it. The same suite runs over stdio and over Streamable HTTP (one server per file).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { createSamplingResponder } from '../../../src/mcp/samplingResponder';
import { READ_RESOURCE_TOOL } from '../../../src/mcp/readResourceTool';
import type { McpResourceUpdate } from '../../../src/mcp/manager';
import { startFakeOpenAIServer, type FakeServerHandle } from '../../helpers/fakeLlm';
import { repoRoot, tempDir, toolContext } from '../../helpers/mcp/mcpHarness';
import { EVERYTHING, eventually, recordingFetch, startHarness, startHttpEverything, type Harness, type HttpEverything, type RecordingFetch, type Transport } from './helpers';

const SAMPLING_PER_MINUTE = 3;
const docsDir = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/docs');

function lastUserText(messages: Array<Record<string, unknown>> | undefined): string {
  const user = (messages ?? []).filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : '';
}

export function defineSuite(transport: Transport): void {
  let h: Harness;
  let llm: FakeServerHandle;
  let http: HttpEverything | undefined;
  let recorder: RecordingFetch | undefined;
  const rootsDir = tempDir(`roots-${transport}`);

  before(async () => {
    // A weak local model: it answers only from what it was sent.
    llm = await startFakeOpenAIServer((request) => ({ text: `Local model says: I read "${lastUserText(request.messages)}".` }), { name: `sampling ${transport}` });
    const sample = createSamplingResponder({ provider: new OpenAICompatibleProvider({ baseUrl: llm.url }), model: 'tiny' });
    if (transport === 'http') {
      http = await startHttpEverything();
      recorder = recordingFetch();
    }
    h = await startHarness({
      transport,
      ...(http && { httpUrl: http.url }),
      ...(recorder && { fetch: recorder.fetch }),
      sample,
      samplingPerMinute: SAMPLING_PER_MINUTE,
    });
  });

  after(async () => {
    await h?.manager.dispose();
    assert.equal(h?.registry.get(READ_RESOURCE_TOOL), undefined, 'read_resource leaves with the servers');
    await http?.stop();
    await llm?.close();
    rootsDir.cleanup();
  });

  test('the catalog: every listed resource, both templates and all four prompts, in the status and on the manager', () => {
    const status = h.manager.status(EVERYTHING);
    const docs = readdirSync(docsDir).sort();
    assert.deepEqual(status.resources.map((r) => r.name).sort(), docs);
    for (const r of status.resources) assert.equal(r.server, EVERYTHING);
    assert.deepEqual(
      status.resourceTemplates.map((t) => [t.uriTemplate, t.variables]),
      [
        ['demo://resource/dynamic/text/{resourceId}', ['resourceId']],
        ['demo://resource/dynamic/blob/{resourceId}', ['resourceId']],
      ],
    );
    const prompts = Object.fromEntries(status.prompts.map((p) => [p.name, p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`)]));
    assert.deepEqual(prompts, {
      'simple-prompt': [],
      'args-prompt': ['city', 'state?'],
      'completable-prompt': ['department', 'name'],
      'resource-prompt': ['resourceType', 'resourceId'],
    });
    assert.deepEqual(h.manager.resources(), status.resources);
    assert.deepEqual(h.manager.resourceTemplates(), status.resourceTemplates);
    assert.deepEqual(h.manager.prompts(), status.prompts);
  });

  test('every listed resource reads back as the file it serves', async () => {
    for (const resource of h.manager.resources()) {
      const parts = await h.manager.readResource(EVERYTHING, resource.uri);
      assert.equal(parts.length, 1, resource.uri);
      const part = parts[0]!;
      assert.ok('text' in part, `${resource.uri} is text`);
      assert.equal(part.text, readFileSync(join(docsDir, resource.name), 'utf8'));
      assert.equal(part.uri, resource.uri);
      assert.equal(part.mimeType, resource.mimeType);
    }
  });

  test('templates are filled and read: text and blob', async () => {
    const [textTemplate, blobTemplate] = h.manager.resourceTemplates();
    const textUri = h.manager.expandTemplate(textTemplate!, { resourceId: '7' });
    assert.equal(textUri, 'demo://resource/dynamic/text/7');
    const [text] = await h.manager.readResource(EVERYTHING, textUri);
    assert.ok(text && 'text' in text);
    assert.match(text.text, /^Resource 7: This is a plaintext resource created at /);

    const blobUri = h.manager.expandTemplate(blobTemplate!, { resourceId: '8' });
    const [blob] = await h.manager.readResource(EVERYTHING, blobUri);
    assert.ok(blob && 'blob' in blob, 'a blob part');
    const decoded = Buffer.from(blob.blob, 'base64');
    assert.equal(blob.bytes, decoded.length);
    assert.match(decoded.toString('utf8'), /^Resource 8: This is a base64 blob created at /);

    assert.throws(() => h.manager.expandTemplate(textTemplate!, {}), /needs a value for \{resourceId\}/);
    assert.throws(() => h.manager.expandTemplate(textTemplate!, { resourceId: '1', id: '2' }), /has no variable \{id\}/);
    await assert.rejects(h.manager.readResource(EVERYTHING, 'demo://resource/dynamic/text/0'), /failed reading demo:\/\/resource\/dynamic\/text\/0: .*Unknown resource/);
  });

  test('read_resource: offered with the known URIs, reads text and describes blobs, and steers a wrong guess', async () => {
    const tool = h.registry.get(READ_RESOURCE_TOOL);
    assert.ok(tool, 'registered while the server lists resources');
    assert.equal(tool.risk, 'read');
    for (const r of h.manager.resources()) assert.ok(tool.description.includes(r.uri), `description lists ${r.uri}`);
    assert.match(tool.description, /template demo:\/\/resource\/dynamic\/text\/\{resourceId\}/);
    const ctx = toolContext(repoRoot, new AbortController().signal);
    const first = h.manager.resources()[0]!;
    const approval = await tool.describeForApproval({ server: EVERYTHING, uri: first.uri }, ctx);
    assert.match(approval.title, new RegExp(`Read the MCP resource ${first.uri.replace(/[.]/g, '\\.')} of server "everything"`));

    const read = await tool.invoke({ server: EVERYTHING, uri: first.uri }, ctx);
    assert.deepEqual(read, { ok: true, content: readFileSync(join(docsDir, first.name), 'utf8') });
    const blob = await tool.invoke({ server: EVERYTHING, uri: 'demo://resource/dynamic/blob/3' }, ctx);
    assert.ok(blob.ok, blob.content);
    assert.match(blob.content, /^\[demo:\/\/resource\/dynamic\/blob\/3, text\/plain\] binary content, \d+ bytes \(not shown\)\.$/);

    const guessed = await tool.invoke({ server: EVERYTHING, uri: 'file:///README.md' }, ctx);
    assert.equal(guessed.ok, false);
    assert.match(guessed.content, /"file:\/\/\/README\.md" is not a resource of MCP server "everything"\. Use one of these:/);
    assert.ok(guessed.content.includes(first.uri));
    const wrongServer = await tool.invoke({ server: 'docs', uri: first.uri }, ctx);
    assert.match(wrongServer.content, /No running MCP server named "docs" offers resources\. Servers with resources: "everything"\./);
  });

  test('a resource the server adds later (gzip-file-as-resource) shows up through list_changed, as a blob', async () => {
    const original = 'hello from the test\n'.repeat(20);
    const changes: number[] = [];
    const sub = h.manager.onDidChange((s) => changes.push(s.resources.length));
    const result = await h.callTool('gzip-file-as-resource', {
      name: `note-${transport}.txt.gz`,
      data: `data:text/plain;base64,${Buffer.from(original).toString('base64')}`,
      outputType: 'resourceLink',
    });
    assert.ok(result.ok, result.content);
    const uri = `demo://resource/session/note-${transport}.txt.gz`;
    const listed = await eventually('the new resource in the status', () => h.manager.status(EVERYTHING).resources.find((r) => r.uri === uri));
    sub.dispose();
    assert.ok(changes.length > 0, 'onDidChange fired for the catalog change');
    assert.equal(listed.mimeType, 'application/gzip');
    const [part] = await h.manager.readResource(EVERYTHING, uri);
    assert.ok(part && 'blob' in part);
    assert.equal(gunzipSync(Buffer.from(part.blob, 'base64')).toString('utf8'), original);
    assert.ok(h.registry.get(READ_RESOURCE_TOOL)!.description.includes(uri), 'read_resource was re-created with the new URI');
  });

  test('subscribe + toggle-subscriber-updates: onDidUpdateResource fires for the subscribed resource', async () => {
    const uri = h.manager.resources()[0]!.uri;
    const updates: McpResourceUpdate[] = [];
    const sub = h.manager.onDidUpdateResource((e) => updates.push(e));
    await h.manager.subscribeResource(EVERYTHING, uri);
    const toggled = await h.callTool('toggle-subscriber-updates');
    assert.match(toggled.content, /Started simulated resource updated notifications/);
    try {
      const update = await eventually('a resources/updated notification', () => updates.find((u) => u.uri === uri));
      assert.deepEqual(update, { server: EVERYTHING, uri });
    } finally {
      const stopped = await h.callTool('toggle-subscriber-updates');
      assert.match(stopped.content, /Stopped simulated resource updates/);
      await h.manager.unsubscribeResource(EVERYTHING, uri);
      sub.dispose();
    }
  });

  test('prompts: simple, required and optional arguments, completable, and an embedded resource', async () => {
    const simple = await h.manager.getPrompt(EVERYTHING, 'simple-prompt', {});
    assert.deepEqual(simple.messages, [{ role: 'user', text: 'This is a simple prompt without arguments.' }]);

    const cityOnly = await h.manager.getPrompt(EVERYTHING, 'args-prompt', { city: 'Lyon' });
    assert.deepEqual(cityOnly.messages, [{ role: 'user', text: "What's weather in Lyon?" }]);
    const both = await h.manager.getPrompt(EVERYTHING, 'args-prompt', { city: 'Portland', state: 'Oregon' });
    assert.equal(both.messages[0]!.text, "What's weather in Portland, Oregon?");
    await assert.rejects(h.manager.getPrompt(EVERYTHING, 'args-prompt', {}), /failed getting the prompt "args-prompt": .*city/);

    const team = await h.manager.getPrompt(EVERYTHING, 'completable-prompt', { department: 'Engineering', name: 'Alice' });
    assert.equal(team.messages[0]!.text, 'Please promote Alice to the head of the Engineering team.');

    const withText = await h.manager.getPrompt(EVERYTHING, 'resource-prompt', { resourceType: 'Text', resourceId: '2' });
    assert.equal(withText.messages.length, 2);
    assert.equal(withText.messages[0]!.text, 'This prompt includes the Text resource with id: 2. Please analyze the following resource:');
    assert.match(withText.messages[1]!.text, /^\[resource demo:\/\/resource\/dynamic\/text\/2\]\nResource 2: This is a plaintext resource created at /);
    const withBlob = await h.manager.getPrompt(EVERYTHING, 'resource-prompt', { resourceType: 'Blob', resourceId: '4' });
    assert.match(withBlob.messages[1]!.text, /^\[resource demo:\/\/resource\/dynamic\/blob\/4: text\/plain, \d+ bytes\]$/);

    await assert.rejects(h.manager.getPrompt(EVERYTHING, 'nope', {}), /has no prompt named "nope" \(it offers: simple-prompt, args-prompt, completable-prompt, resource-prompt\)/);
  });

  test('errors name what exists: an unknown server lists the configured ones', async () => {
    await assert.rejects(h.manager.readResource('docs', 'x://y'), /there is no MCP server named "docs" \(configured: everything\)/);
    await assert.rejects(h.manager.getPrompt('docs', 'p', {}), /there is no MCP server named "docs"/);
  });

  test('roots: announced, read back by get-roots-list, and updated after rootsChanged()', async () => {
    const first = { uri: pathToFileURL(rootsDir.path).href, name: 'project' };
    h.host.roots = [first];
    // The server fetched the roots once right after the handshake (empty then) and keeps them; tell it.
    h.manager.rootsChanged();
    const seen = await eventually('the first root in get-roots-list', async () => {
      const r = await h.callTool('get-roots-list');
      return r.content.includes(first.uri) ? r.content : undefined;
    });
    assert.match(seen, /Current MCP Roots \(1 total\):\s+1\. project\s+URI: file:\/\//);

    const second = { uri: pathToFileURL(join(rootsDir.path, 'lib')).href, name: 'library' };
    h.host.roots = [first, second];
    h.manager.rootsChanged();
    const updated = await eventually('both roots in get-roots-list', async () => {
      const r = await h.callTool('get-roots-list');
      return r.content.includes(second.uri) ? r.content : undefined;
    });
    assert.match(updated, /Current MCP Roots \(2 total\)/);
    assert.match(h.manager.getLog(EVERYTHING).join('\n'), /server asked for the roots: 2 announced/);
  });

  test('elicitation: the form is read from the schema; accept sends the answers', async () => {
    h.host.elicitAnswer = () => ({
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true, email: 'ada@example.org', integer: 7, birthdate: '1815-12-10', untitledMultipleSelectEnum: ['Piano', 'Violin'], legacyTitledEnum: 'pet-3' },
    });
    const before = h.host.elicitations.length;
    const result = await h.callTool('trigger-elicitation-request');
    assert.ok(result.ok, result.content);
    assert.match(result.content, /✅ User provided the requested information!/);
    assert.match(result.content, /- Name: Ada Lovelace\n- Agreed to terms: true\n- Email: ada@example\.org\n- Birthdate: 1815-12-10\n- Favorite Integer: 7/);
    assert.match(result.content, /"untitledMultipleSelectEnum": \[\s*"Piano",\s*"Violin"\s*\]/);

    const request = h.host.elicitations[before]!;
    assert.equal(request.server, EVERYTHING);
    assert.equal(request.message, 'Please provide inputs for the following fields:');
    const field = (name: string) => request.fields.find((f) => f.name === name)!;
    assert.deepEqual(field('name'), { kind: 'string', name: 'name', title: 'String', description: 'Your full, legal name', required: true });
    const email = field('email');
    assert.equal(email.kind === 'string' && email.format, 'email');
    assert.deepEqual(field('integer'), { kind: 'number', name: 'integer', title: 'Integer', description: field('integer').description, required: false, integer: true, default: 42, minimum: 1, maximum: 100 });
    const titled = field('titledSingleSelectEnum');
    assert.ok(titled.kind === 'enum');
    assert.deepEqual(titled.options.map((o) => o.label), ['Superman', 'Green Lantern', 'Wonder Woman']);
    const fish = field('titledMultipleSelectEnum');
    assert.ok(fish.kind === 'multiEnum');
    assert.deepEqual([fish.options.map((o) => `${o.value}=${o.label}`), fish.minItems, fish.maxItems, fish.default], [['fish-1=Tuna', 'fish-2=Salmon', 'fish-3=Trout'], 1, 3, ['fish-1']]);
    const pets = field('legacyTitledEnum');
    assert.ok(pets.kind === 'enum');
    assert.deepEqual(pets.options[0], { value: 'pet-1', label: 'Cats' });
  });

  test('elicitation: decline and cancel reach the server as such', async () => {
    h.host.elicitAnswer = () => ({ action: 'decline' });
    assert.match((await h.callTool('trigger-elicitation-request')).content, /❌ User declined to provide the requested information\./);
    h.host.elicitAnswer = () => ({ action: 'cancel' });
    assert.match((await h.callTool('trigger-elicitation-request')).content, /⚠️ User cancelled the elicitation dialog\./);
    h.host.elicitAnswer = () => {
      throw new Error('the form was closed');
    };
    assert.match((await h.callTool('trigger-elicitation-request')).content, /⚠️ User cancelled the elicitation dialog\./);
  });

  test('elicitation: an answer that breaks the schema is never sent; the server gets cancel and the log says why', async () => {
    const answers: Array<Record<string, string | number | boolean | string[]>> = [
      { integer: 5 }, // the required name is missing
      { name: 'Ada', integer: 500 }, // above the maximum
      { name: 'Ada', email: 'not-an-email' },
      { name: 'Ada', untitledMultipleSelectEnum: ['Piano', 'Kazoo'] },
      { name: 'Ada', nickname: 'extra' },
    ];
    for (const content of answers) {
      h.host.elicitAnswer = () => ({ action: 'accept', content });
      const result = await h.callTool('trigger-elicitation-request');
      assert.match(result.content, /⚠️ User cancelled the elicitation dialog\./, JSON.stringify(content));
      assert.doesNotMatch(result.content, /Ada/);
    }
    const log = h.manager.getLog(EVERYTHING).join('\n');
    assert.match(log, /elicitation answer does not match the requested schema \("name" is required\); answered cancel/);
    assert.match(log, /"integer" must be at most 100, got 500/);
    assert.match(log, /"email" is not a valid email/);
    assert.match(log, /"untitledMultipleSelectEnum" contains "Kazoo"/);
    assert.match(log, /"nickname" is not a field of the form/);
  });

  test('sampling: approved requests are answered by the local model, declined ones refused, and the per-minute limit holds', async () => {
    h.host.approve = () => true;
    const answered = await h.callTool('trigger-sampling-request', { prompt: 'Name a colour', maxTokens: 50 });
    assert.ok(answered.ok, answered.content);
    assert.match(answered.content, /"text": "Local model says: I read \\"Resource trigger-sampling-request context: Name a colour\\"\."/);
    assert.match(answered.content, /"model": "tiny"/);
    assert.match(answered.content, /"stopReason": "endTurn"/);
    const sent = llm.requests.at(-1)!;
    assert.deepEqual((sent.messages as Array<Record<string, unknown>>).map((m) => [m.role, m.content]), [
      ['system', 'You are a helpful test server.'],
      ['user', 'Resource trigger-sampling-request context: Name a colour'],
    ]);
    assert.equal(sent.max_tokens, 50);
    assert.equal(sent.temperature, 0.7);
    const asked = h.host.approvals.at(-1)!;
    assert.deepEqual([asked.server, asked.maxTokens, asked.systemPrompt], [EVERYTHING, 50, 'You are a helpful test server.']);

    h.host.approve = () => false;
    const llmCalls = llm.requests.length;
    const declined = await h.callTool('trigger-sampling-request', { prompt: 'Again' });
    assert.equal(declined.ok, false);
    assert.match(declined.content, /the user declined the sampling request/);
    assert.equal(llm.requests.length, llmCalls, 'the model never ran');

    h.host.approve = () => true;
    const third = await h.callTool('trigger-sampling-request', { prompt: 'Third' });
    assert.ok(third.ok, third.content);
    const approvalsBefore = h.host.approvals.length;
    const limited = await h.callTool('trigger-sampling-request', { prompt: 'Fourth' });
    assert.equal(limited.ok, false);
    assert.match(limited.content, /sampling request refused: MCP server "everything" may make at most 3 sampling requests per minute; try again in \d+ s/);
    assert.equal(h.host.approvals.length, approvalsBefore, 'nobody was asked to approve a request over the limit');

    h.clock.now += 61_000; // the window slides past the first three
    const later = await h.callTool('trigger-sampling-request', { prompt: 'Later' });
    assert.ok(later.ok, later.content);
  });

  test('progress: a long operation reports every step', async () => {
    const progress: string[] = [];
    const result = await h.callTool('trigger-long-running-operation', { duration: 0.4, steps: 4 }, { onProgress: (m) => progress.push(m) });
    assert.ok(result.ok, result.content);
    assert.match(result.content, /Long running operation completed\. Duration: 0\.4 seconds, Steps: 4\./);
    // The SDK hands notifications on a microtask but settles the response at once, so the last report, sent
    // right before the result, may be dropped; every earlier step must arrive, in order.
    const steps = ['progress 1/4', 'progress 2/4', 'progress 3/4', 'progress 4/4'];
    assert.ok(progress.length >= 3, `got ${JSON.stringify(progress)}`);
    assert.deepEqual(progress, steps.slice(0, progress.length));
  });

  test('cancellation: aborting mid-call ends it at once and tells the server (notifications/cancelled)', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const started = Date.now();
    const result = await h.callTool('trigger-long-running-operation', { duration: 20, steps: 40 }, {
      signal: controller.signal,
      onProgress: () => {
        if (abortedAt) return;
        abortedAt = Date.now();
        controller.abort();
      },
    });
    const endedAt = Date.now();
    assert.ok(abortedAt > 0, 'progress arrived before the abort');
    assert.equal(result.ok, false);
    assert.match(result.content, /Cancelled while the MCP tool was running; the server was told to stop\./);
    assert.ok(endedAt - abortedAt < 1000, `ended ${endedAt - abortedAt} ms after the abort`);
    assert.ok(endedAt - started < 5000, 'long before the 20 s operation would have finished');
    if (recorder) {
      const call = recorder.sent.filter((m) => m.method === 'tools/call' && (m.params as { name?: string }).name === 'trigger-long-running-operation').at(-1)!;
      const cancelled = await eventually('notifications/cancelled on the wire', () =>
        recorder!.sent.find((m) => m.method === 'notifications/cancelled' && (m.params as { requestId?: unknown }).requestId === call.id),
      );
      assert.ok(cancelled);
    }
    // The connection is still good afterwards.
    assert.equal((await h.callTool('echo', { message: 'still here' })).content, 'Echo: still here');
  });
}
