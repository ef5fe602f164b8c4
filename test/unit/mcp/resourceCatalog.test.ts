import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toPromptInfos, toResourceInfos, toResourceParts, toTemplateInfos } from '../../../src/mcp/resourceCatalog';
import { renderPromptResult } from '../../../src/mcp/promptContent';
import { describeCatalog, MAX_RESOURCE_CHARS, partsToText } from '../../../src/mcp/readResourceTool';

test('malformed catalog entries are skipped and reported; the rest stay', () => {
  const skipped: string[] = [];
  const skip = (why: string) => skipped.push(why);
  const resources = toResourceInfos('s', [{ uri: 'a://1', name: 'one', mimeType: 'text/plain', size: 3 }, { name: 'no uri' }, 'junk', { uri: 'a://1', name: 'dup' }, { uri: 'a://2' }], skip);
  assert.deepEqual(resources, [
    { server: 's', uri: 'a://1', name: 'one', mimeType: 'text/plain', size: 3 },
    { server: 's', uri: 'a://2', name: 'a://2' },
  ]);
  const templates = toTemplateInfos('s', [{ uriTemplate: 'a://{x}/{y}{?q}', name: 't' }, { uriTemplate: 'bad{' }, {}], (t) => {
    if (t.includes('bad')) throw new Error('unclosed brace');
    return t === 'a://{x}/{y}{?q}' ? ['x', 'y', 'q'] : [];
  }, skip);
  assert.deepEqual(templates, [{ server: 's', uriTemplate: 'a://{x}/{y}{?q}', name: 't', variables: ['x', 'y', 'q'] }]);
  const prompts = toPromptInfos('s', [{ name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b', description: 'B' }, { nope: 1 }] }, { title: 'no name' }], skip);
  assert.deepEqual(prompts, [{ server: 's', name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b', description: 'B', required: false }] }]);
  assert.deepEqual(toResourceParts([{ text: 'hi' }, { uri: 'a://b', blob: 'AAAA', mimeType: 'x/y' }, { uri: 'a://c' }], 'a://req', skip), [
    { uri: 'a://req', text: 'hi' },
    { uri: 'a://b', mimeType: 'x/y', blob: 'AAAA', bytes: 3 },
  ]);
  assert.equal(skipped.length, 6, skipped.join('\n'));
  assert.match(skipped.join('\n'), /resource template "bad\{" is malformed: unclosed brace/);
});

test('prompt messages render as text: embedded resources inlined with their uri, binary described', () => {
  const result = renderPromptResult({
    description: 'd',
    messages: [
      { role: 'user', content: { type: 'text', text: 'Look:' } },
      { role: 'assistant', content: { type: 'image', data: 'AAAAAA==', mimeType: 'image/png' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'a://t', text: 'body' } } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'a://b', blob: 'AAAA', mimeType: 'application/zip' } } },
      { role: 'user', content: { type: 'resource_link', uri: 'a://l', name: 'link' } },
    ],
  });
  assert.deepEqual(result, {
    description: 'd',
    messages: [
      { role: 'user', text: 'Look:' },
      { role: 'assistant', text: '[image/png, 4 bytes]' },
      { role: 'user', text: '[resource a://t]\nbody' },
      { role: 'user', text: '[resource a://b: application/zip, 3 bytes]' },
      { role: 'user', text: '[resource link: a://l (link)]' },
    ],
  });
});

test('read_resource caps long text and says so; its description lists at most 20 URIs per server', () => {
  const long = partsToText([{ uri: 'a://x', text: 'x'.repeat(MAX_RESOURCE_CHARS + 500) }], 'a://x');
  assert.equal(long.length < MAX_RESOURCE_CHARS + 200, true);
  assert.match(long, /\[cut: the resource has 20500 characters; only the first 20000 are shown\]$/);
  assert.equal(partsToText([], 'a://e'), 'The resource a://e is empty.');
  const many = Array.from({ length: 25 }, (_, i) => ({ server: 's', uri: `a://${i}`, name: `n${i}` }));
  const description = describeCatalog(many, [{ server: 't', uriTemplate: 'b://{id}', name: 'B', description: 'a b', variables: ['id'] }]);
  assert.ok(description.includes('- a://19 (n19)'));
  assert.ok(!description.includes('a://20'));
  assert.match(description, /- … and 5 more/);
  assert.match(description, /Server "t":\n- template b:\/\/\{id\} — a b/);
});
