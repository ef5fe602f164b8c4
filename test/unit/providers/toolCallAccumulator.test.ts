import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/core/provider';
import { ToolCallAccumulator } from '../../../src/providers/toolCallAccumulator';

function counterIds(): () => string {
  let n = 0;
  return () => `gen_${++n}`;
}

describe('ToolCallAccumulator', () => {
  test('pieces by index: first carries id and name, later only arguments', () => {
    const acc = new ToolCallAccumulator(counterIds());
    acc.add({ index: 0, id: 'A', type: 'function', function: { name: 'get_weather', arguments: '{' } });
    acc.add({ index: 0, function: { arguments: ' "city"' } });
    acc.add({ index: 1, id: 'B', type: 'function', function: { name: 'read_file', arguments: '' } });
    acc.add({ index: 0, function: { arguments: ': "Paris" }' } });
    acc.add({ index: 1, function: { arguments: '{"path":"a"}' } });
    assert.deepEqual(acc.finish(), [
      { id: 'A', name: 'get_weather', arguments: '{ "city": "Paris" }' },
      { id: 'B', name: 'read_file', arguments: '{"path":"a"}' },
    ]);
  });

  test('missing ids are generated, a repeated name is not doubled', () => {
    const acc = new ToolCallAccumulator(counterIds());
    acc.add({ index: 0, function: { name: 'ls', arguments: '{}' } });
    acc.add({ index: 0, function: { name: 'ls' } });
    assert.deepEqual(acc.finish(), [{ id: 'gen_1', name: 'ls', arguments: '{}' }]);
  });

  test('without an index a new id starts a new call', () => {
    const acc = new ToolCallAccumulator(counterIds());
    acc.add({ id: 'x', function: { name: 'a', arguments: '{"n":' } });
    acc.add({ function: { arguments: '1}' } });
    acc.add({ id: 'y', function: { name: 'b', arguments: '{}' } });
    assert.deepEqual(acc.finish(), [
      { id: 'x', name: 'a', arguments: '{"n":1}' },
      { id: 'y', name: 'b', arguments: '{}' },
    ]);
  });

  test('object arguments (non-standard servers) become a JSON string', () => {
    const acc = new ToolCallAccumulator(counterIds());
    acc.add({ index: 0, id: 'z', function: { name: 'a', arguments: { k: 'v' } } });
    assert.deepEqual(acc.finish(), [{ id: 'z', name: 'a', arguments: '{"k":"v"}' }]);
  });

  test('a call without a name is an invalid_response error', () => {
    const acc = new ToolCallAccumulator(counterIds());
    acc.add({ index: 0, function: { arguments: '{}' } });
    assert.throws(() => acc.finish(), (e: unknown) => e instanceof ProviderError && e.kind === 'invalid_response');
  });
});
