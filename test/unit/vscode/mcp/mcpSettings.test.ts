import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServerConfig } from '../../../../src/mcp/types';
import { DEFAULT_SAMPLING_PER_MINUTE, samplingPerMinuteOf, toolTimeoutMsOf, withDefaultTimeout } from '../../../../src/editor/mcp/mcpSettings';

const server = (name: string, toolTimeoutMs?: number): McpServerConfig => ({
  name,
  source: { kind: 'userSetting' },
  transport: { type: 'stdio', command: 'node', args: ['server.js'], env: {} },
  tools: {},
  ...(toolTimeoutMs !== undefined && { toolTimeoutMs }),
});

test('samplingPerMinute: whole numbers ≥ 0 as given (0 = off), anything else the default of 10', () => {
  assert.equal(DEFAULT_SAMPLING_PER_MINUTE, 10);
  assert.equal(samplingPerMinuteOf(3), 3);
  assert.equal(samplingPerMinuteOf(0), 0);
  for (const bad of [undefined, -1, 2.5, '5', null, Number.NaN]) assert.equal(samplingPerMinuteOf(bad), 10, String(bad));
});

test('toolTimeoutSeconds: positive seconds become ms; anything else leaves the client default', () => {
  assert.equal(toolTimeoutMsOf(90), 90_000);
  assert.equal(toolTimeoutMsOf(0.5), 500);
  for (const bad of [undefined, 0, -5, '60', Number.POSITIVE_INFINITY]) assert.equal(toolTimeoutMsOf(bad), undefined, String(bad));
});

test('the setting fills in only for servers that set no toolTimeoutMs of their own; the definitions are not changed', () => {
  const own = server('own', 5_000);
  const plain = server('plain');
  const out = withDefaultTimeout([own, plain], 120_000);
  assert.equal(out[0], own, 'a server with its own timeout is passed as it is');
  assert.equal(out[1]!.toolTimeoutMs, 120_000);
  assert.equal(plain.toolTimeoutMs, undefined, 'the input is not mutated');
  assert.deepEqual(withDefaultTimeout([own, plain], undefined), [own, plain]);
});
