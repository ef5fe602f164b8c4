// MCP resource chips in the message the model gets: read at send time through the server (here a reader that
// answers like McpManager.readResource), text under a `server:uri` header, binary described, a failed read a
// note; next to code chips, within the same limits. Also the choices and chips the Attach command builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAttachedMessage } from '../../../src/editor/codeToChat/readAttachments';
import { languageOf, type ResourceReader } from '../../../src/editor/codeToChat/resourceBlocks';
import { resourceChip, resourceChoices, targetOf } from '../../../src/editor/mcp/resourceChoices';
import { splitAttachedMessage } from '../../../src/shared/attachedMessage';
import type { Attachment, ResourceAttachment } from '../../../src/shared/protocol';
import type { McpResourceInfo, McpResourcePart, McpResourceTemplateInfo } from '../../../src/mcp/types';

const files: Record<string, string> = { '/ws/src/a.ts': 'const a = 1;\nconst b = 2;\n' };
const resources: Record<string, McpResourcePart[]> = {
  'demo://doc.md': [{ uri: 'demo://doc.md', mimeType: 'text/markdown', text: '# Doc\nHello' }],
  'demo://logo.png': [{ uri: 'demo://logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=', bytes: 8 }],
  'demo://dir': [
    { uri: 'demo://dir/a.txt', mimeType: 'text/plain', text: 'A' },
    { uri: 'demo://dir/b.json', mimeType: 'application/json', text: '{"b":1}' },
  ],
  'demo://empty': [],
  'demo://big': [{ uri: 'demo://big', text: 'x'.repeat(5000) }],
};

const calls: string[] = [];
const read: ResourceReader = async (server, uri, signal) => {
  signal.throwIfAborted();
  calls.push(`${server}:${uri}`);
  if (server !== 'everything') throw new Error(`there is no MCP server named "${server}"`);
  const parts = resources[uri];
  if (!parts) throw new Error(`MCP error -32002: Resource ${uri} not found`);
  return parts;
};
const reader = { readFile: async (path: string) => files[path] ?? Promise.reject(new Error(`ENOENT: ${path}`)), readResource: read };
const chip = (uri: string, server = 'everything'): ResourceAttachment => ({ id: uri, kind: 'mcpResource', server, uri });

test('text resources go in as fenced blocks labelled server:uri, next to code chips, before the question', async () => {
  calls.length = 0;
  const code: Attachment = { id: 'c', path: 'src/a.ts', file: '/ws/src/a.ts', startLine: 1, endLine: 1, languageId: 'typescript' };
  const built = await buildAttachedMessage('What is this?', [code, chip('demo://doc.md')], reader, new AbortController().signal);
  assert.deepEqual(calls, ['everything:demo://doc.md'], 'read when the message is built, through its server');
  assert.equal(
    built.message,
    [
      'Code attached to this message (2 blocks, as it is in the editor now):',
      '',
      'src/a.ts:1',
      '```typescript',
      'const a = 1;',
      '```',
      '',
      'everything:demo://doc.md',
      '```markdown',
      '# Doc',
      'Hello',
      '```',
      '',
      'What is this?',
    ].join('\n'),
  );
  assert.deepEqual(built.reads, [{ path: 'src/a.ts', range: { start: 1, end: 1 } }], 'only files go to the tracker');
  assert.deepEqual(splitAttachedMessage(built.message)?.labels, ['src/a.ts:1', 'everything:demo://doc.md'], 'the panel shows it as a chip label');
});

test('binary parts are described by type and size; several parts are named by their own uris', async () => {
  const built = await buildAttachedMessage('Q', [chip('demo://logo.png'), chip('demo://dir')], reader, new AbortController().signal);
  const split = splitAttachedMessage(built.message);
  assert.deepEqual(split?.labels, ['everything:demo://logo.png', 'everything:demo://dir/a.txt', 'everything:demo://dir/b.json']);
  assert.ok(built.message.includes('everything:demo://logo.png \u2014 binary content (image/png, 8 bytes), not included\n```\n```'), built.message);
  assert.ok(!built.message.includes('iVBORw0KGgo'), 'no base64 in the message');
  assert.ok(built.message.includes('everything:demo://dir/b.json\n```json\n{"b":1}\n```'), built.message);
});

test('a failed read, an unknown server, an empty answer or no reader at all attach a note; the message still goes', async () => {
  const chips = [chip('demo://missing'), chip('demo://doc.md', 'gone'), chip('demo://empty')];
  const built = await buildAttachedMessage('Still here', chips, reader, new AbortController().signal);
  assert.ok(built.message.includes('everything:demo://missing \u2014 could not be read: MCP error -32002: Resource demo://missing not found'), built.message);
  assert.ok(built.message.includes('gone:demo://doc.md \u2014 could not be read: there is no MCP server named "gone"'), built.message);
  assert.ok(built.message.includes('everything:demo://empty \u2014 the server returned no content'), built.message);
  assert.equal(splitAttachedMessage(built.message)?.text, 'Still here');
  const without = await buildAttachedMessage('Q', [chip('demo://doc.md')], { readFile: reader.readFile }, new AbortController().signal);
  assert.ok(without.message.includes('everything:demo://doc.md \u2014 could not be read: MCP resources are not available here'), without.message);
});

test('resources share the chip and message limits with code; Stop while reading stops', async () => {
  const clipped = await buildAttachedMessage('Q', [chip('demo://big'), chip('demo://doc.md')], reader, new AbortController().signal, { maxChipChars: 1000, maxTotalChars: 1200 });
  assert.ok(clipped.message.includes('everything:demo://big \u2014 clipped to 1,000 of 5,000 characters\n```\n' + 'x'.repeat(1000) + '\n```'), clipped.message.slice(0, 300));
  assert.ok(clipped.message.includes('everything:demo://doc.md \u2014 not included: the message is already long'), 'below the useful minimum, named but not read');
  const stop = new AbortController();
  const slow: ResourceReader = (_server, _uri, signal) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }));
  const pending = buildAttachedMessage('Q', [chip('demo://doc.md')], { readFile: reader.readFile, readResource: slow }, stop.signal);
  stop.abort();
  await assert.rejects(pending, { name: 'AbortError' });
});

test('the fence language comes from the MIME type when the model knows it by name', () => {
  assert.equal(languageOf('text/markdown'), 'markdown');
  assert.equal(languageOf('application/json; charset=utf-8'), 'json');
  assert.equal(languageOf('text/plain'), undefined);
  assert.equal(languageOf(undefined), undefined);
});

const LISTED: McpResourceInfo[] = [
  { server: 'everything', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mimeType: 'text/markdown', description: 'Static document file' },
  { server: 'docs', uri: 'docs://readme', name: 'readme', title: 'Read me' },
];
const TEMPLATES: McpResourceTemplateInfo[] = [
  { server: 'everything', uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic Text Resource', mimeType: 'text/plain', variables: ['resourceId'] },
];

test('the QuickPick lists resources (name, uri, server) and templates (with the variables to fill)', () => {
  const { resources: r, templates: t } = resourceChoices(LISTED, TEMPLATES);
  assert.deepEqual(
    r.map(({ label, description, detail }) => ({ label, description, detail })),
    [
      { label: 'architecture.md', description: 'demo://resource/static/document/architecture.md', detail: 'everything · Static document file · text/markdown' },
      { label: 'Read me', description: 'docs://readme', detail: 'docs' },
    ],
  );
  assert.deepEqual(t.map(({ label, description, detail }) => ({ label, description, detail })), [
    { label: 'Dynamic Text Resource', description: 'demo://resource/dynamic/text/{resourceId}', detail: 'everything · fill in resourceId' },
  ]);
});

test('a chip names its server and uri; a filled template is named after the template and its values', () => {
  assert.deepEqual(resourceChip('1', { kind: 'resource', resource: LISTED[0]! }), {
    id: '1',
    kind: 'mcpResource',
    server: 'everything',
    uri: 'demo://resource/static/document/architecture.md',
    name: 'architecture.md',
    mimeType: 'text/markdown',
  });
  const filled = resourceChip('2', { kind: 'template', template: TEMPLATES[0]! }, { uri: 'demo://resource/dynamic/text/3', values: { resourceId: '3' } });
  assert.deepEqual(filled, { id: '2', kind: 'mcpResource', server: 'everything', uri: 'demo://resource/dynamic/text/3', name: 'Dynamic Text Resource: 3', mimeType: 'text/plain' });
  assert.throws(() => resourceChip('3', { kind: 'template', template: TEMPLATES[0]! }), /needs its variables filled/);
});

test('a click in the MCP Servers view names a resource or template that must still be offered', () => {
  assert.deepEqual(targetOf({ server: 'docs', uri: 'docs://readme' }, LISTED, TEMPLATES), { kind: 'resource', resource: LISTED[1] });
  assert.deepEqual(targetOf({ server: 'everything', uriTemplate: TEMPLATES[0]!.uriTemplate }, LISTED, TEMPLATES), { kind: 'template', template: TEMPLATES[0] });
  for (const arg of [undefined, null, 'docs://readme', { uri: 'docs://readme' }, { server: 'everything', uri: 'docs://readme' }, { server: 'docs', uriTemplate: 'x' }]) {
    assert.equal(targetOf(arg, LISTED, TEMPLATES), undefined, JSON.stringify(arg));
  }
});
