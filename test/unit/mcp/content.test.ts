import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64Bytes, contentToText } from '../../../src/mcp/content';

test('text stays as is; images and audio are described by type and size', () => {
  const png = Buffer.alloc(12345, 1).toString('base64');
  const text = contentToText({
    content: [
      { type: 'text', text: 'first' },
      { type: 'image', mimeType: 'image/png', data: png },
      { type: 'audio', mimeType: 'audio/mpeg', data: Buffer.alloc(7).toString('base64') },
      { type: 'text', text: 'last' },
    ],
  });
  assert.equal(text, 'first\n[image: image/png, 12345 bytes]\n[audio: audio/mpeg, 7 bytes]\nlast');
});

test('resources: links give the uri and description, embedded text is included, blobs are described', () => {
  const text = contentToText({
    content: [
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a', description: 'the a file' },
      { type: 'resource', resource: { uri: 'file:///b.md', text: '# B' } },
      { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/zip', blob: Buffer.alloc(5).toString('base64') } },
    ],
  });
  assert.equal(text, '[resource link: file:///a.txt (a)]: the a file\n[resource: file:///b.md]\n# B\n[resource: file:///c.bin, application/zip, 5 bytes]');
});

test('structured content is used when there is no content; empty results say so', () => {
  assert.equal(contentToText({ content: [], structuredContent: { sum: 3 } }), '{\n  "sum": 3\n}');
  assert.equal(contentToText({ content: [] }), '(the tool returned no content)');
  assert.equal(contentToText({ isError: true }), '(the tool reported an error without a message)');
  assert.match(contentToText({ content: [{ type: 'hologram', x: 1 }] }), /^\[hologram content\] /);
});

test('base64 sizes are computed without decoding', () => {
  for (const n of [0, 1, 2, 3, 4, 100, 1001]) assert.equal(base64Bytes(Buffer.alloc(n).toString('base64')), n);
  assert.equal(base64Bytes(undefined), 0);
});
