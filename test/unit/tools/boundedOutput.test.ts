// BoundedOutput keeps head and tail in bounded memory and counts what it dropped.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedOutput } from '../../../src/node/boundedOutput';

describe('BoundedOutput', () => {
  it('keeps everything while under the cap', () => {
    const out = new BoundedOutput(100);
    out.push('hello ');
    out.push('world');
    assert.equal(out.toString(), 'hello world');
    assert.equal(out.omitted, 0);
  });

  it('keeps the head (40%) and the tail (60%) and marks the cut', () => {
    const out = new BoundedOutput(10);
    for (const ch of 'abcdefghijklmnopqrstuvwxyz') out.push(ch);
    assert.equal(out.omitted, 16);
    assert.equal(out.toString(), 'abcd\n[… 16 characters of output omitted …]\nuvwxyz');
  });

  it('handles chunks larger than the whole cap', () => {
    const out = new BoundedOutput(10);
    out.push('0123456789ABCDEFGHIJ');
    out.push('KLM');
    assert.equal(out.toString(), '0123\n[… 13 characters of output omitted …]\nHIJKLM');
    assert.equal(out.omitted, 13);
  });

  it('stays bounded however much is pushed', () => {
    const out = new BoundedOutput(1000);
    const chunk = 'x'.repeat(4096) + '\n';
    for (let i = 0; i < 5000; i++) out.push(chunk);
    out.push('THE END');
    const text = out.toString();
    assert.ok(text.length < 1100, `length ${text.length}`);
    assert.ok(text.endsWith('THE END'));
    assert.equal(out.omitted, 5000 * chunk.length + 7 - 1000);
  });
});
