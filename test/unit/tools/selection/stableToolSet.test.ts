// The held tool set keeps its identity from request to request: the token meter and the prompt-cache estimate cache
// a tool list's size and rendering by array identity, so a fresh copy per request would serialise every definition
// again each round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateToolDefinitionTokens } from '../../../../src/core/tokens';
import { StableToolSet } from '../../../../src/core/tools/selection/stableToolSet';
import { ToolSelector } from '../../../../src/core/tools/selection/toolSelector';
import { realisticDefinitions } from '../../../helpers/tools/realisticTools';

const signal = new AbortController().signal;

test('every tool offered: the registry list itself, request after request', async () => {
  const definitions = realisticDefinitions();
  const set = new StableToolSet(new ToolSelector());
  const first = await set.offer({ definitions, query: 'rename notes.txt', window: 0, signal });
  const second = await set.offer({ definitions, query: 'now read it', window: 0, signal });
  assert.equal(first.filtered, false);
  assert.equal(first.tools, definitions);
  assert.equal(second.tools, first.tools);
});

test('a filtered set is the same array until a tool is added; the addition makes a new one and leaves the old as it was', async () => {
  const definitions = realisticDefinitions();
  const window = Math.ceil(estimateToolDefinitionTokens(definitions) / 0.25 / 3);
  const set = new StableToolSet(new ToolSelector({ settings: { maxOffered: 4 } }));
  const first = await set.offer({ definitions, query: 'rename notes.txt', window, signal });
  assert.equal(first.filtered, true);
  const again = await set.offer({ definitions, query: 'and the other file', window, signal });
  assert.equal(again.tools, first.tools, 'no additions: the held array is handed out again');

  const missing = definitions.find((d) => !first.offered.includes(d.name))!;
  const before = [...first.tools];
  const grown = await set.offer({ definitions, query: 'x', namedIn: `use ${missing.name}`, window, signal });
  assert.deepEqual(grown.added, [missing.name]);
  assert.notEqual(grown.tools, first.tools, 'a grown set is a new array');
  assert.deepEqual(first.tools, before, 'the list handed out before is not changed in place');
  assert.equal(grown.tools.at(-1)?.name, missing.name);
  const after = await set.offer({ definitions, query: 'x', namedIn: `use ${missing.name}`, window, signal });
  assert.equal(after.tools, grown.tools);
});
