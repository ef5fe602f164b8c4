// The checkpoint size bound as the editor setting and the CLI's --config file give it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkpointLimitBytes } from '../../../src/core/checkpoints/checkpointSettings';
import { loadCliConfig } from '../../../src/cli/cliConfig';

test('megabytes become bytes; absent is 50 MB; bad values are refused with the value named', () => {
  assert.equal(checkpointLimitBytes(undefined), 50 * 1024 * 1024);
  assert.equal(checkpointLimitBytes({}), 50 * 1024 * 1024);
  assert.equal(checkpointLimitBytes({ maxSizeMB: 2 }), 2 * 1024 * 1024);
  assert.throws(() => checkpointLimitBytes({ maxSizeMB: 0 }), /from 1 to 2048, got 0/);
  assert.throws(() => checkpointLimitBytes({ maxSizeMB: '10' }), /got 10/);
  assert.throws(() => checkpointLimitBytes({ maxSizeMb: 10 }), /unknown checkpoint setting\(s\) maxSizeMb/);
  assert.throws(() => checkpointLimitBytes(12), /must be a number of megabytes/);
});

test('the CLI config file carries it; a bad one is a usage error naming the file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-ckpt-cfg-'));
  const good = path.join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({ checkpoints: { maxSizeMB: 5 } }));
  assert.equal(loadCliConfig(good).checkpointLimitBytes, 5 * 1024 * 1024);
  const bad = path.join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ checkpoints: { maxSizeMB: -1 } }));
  assert.throws(() => loadCliConfig(bad), /--config .*bad\.json: checkpoints\.maxSizeMB must be/);
});
