// Compaction to a token budget: noise and parameter descriptions go first, tool descriptions last; names,
// types, enums, required lists and the parameters themselves always survive; the input is never changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolDefinition } from '../../../../src/core/messages';
import { estimateToolDefinitionTokens } from '../../../../src/core/tokens';
import { compactToolDefinitions, firstSentence } from '../../../../src/core/tools/selection/compactSchema';
import { realisticDefinitions } from '../../../helpers/tools/realisticTools';

const LONG_PARAM =
  'The path of the file to change. It must be inside one of the allowed directories. Relative paths are resolved against the first allowed directory, and symlinks are followed.';

function tool(name: string, description: string): ToolDefinition {
  return {
    name,
    description,
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'Arguments',
      properties: {
        path: { type: 'string', description: LONG_PARAM },
        mode: { type: 'string', enum: ['fast', 'safe'], description: 'How careful to be. Safe mode checks twice before writing anything to disk.' },
        // A parameter literally called "description": a property, not an annotation.
        description: { type: 'string', description: 'A note stored with the change. Shown in the history view later.' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: { oldText: { type: 'string', description: 'Text to find. Must match exactly, whitespace included.' } },
            required: ['oldText'],
          },
        },
      },
      required: ['path', 'description'],
    },
  };
}

const DESCRIPTION =
  'Change a file in place with careful checks. This tool reads the file, applies the edits in order, verifies the result and writes it back atomically. It works on text files only and fails on binary content.';

/** Property names, types, enums and required lists at every level: what must never change. */
function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'description' && typeof v === 'string') continue;
    if (k === '$schema' || k === 'title' || k === 'examples') continue;
    out[k] = skeleton(v);
  }
  return out;
}

describe('compactToolDefinitions', () => {
  const defs = [tool('careful_edit', DESCRIPTION), tool('other_edit', 'Edit another way. Rarely needed.')];
  const full = estimateToolDefinitionTokens(defs);

  it('returns definitions within the budget unchanged (the same objects)', () => {
    const out = compactToolDefinitions(defs, full);
    assert.equal(out.length, 2);
    out.forEach((d, i) => assert.equal(d, defs[i]));
  });

  it('drops schema noise and trims parameter descriptions before touching tool descriptions', () => {
    const out = compactToolDefinitions(defs, full - 30);
    assert.ok(estimateToolDefinitionTokens(out) <= full - 30);
    assert.equal(out[0]!.description, DESCRIPTION, 'the tool description is still whole');
    assert.equal((out[0]!.parameters as Record<string, unknown>).$schema, undefined);
  });

  it('cuts tool descriptions only after every parameter description is gone', () => {
    const noParamDescriptions = compactToolDefinitions(defs, 1).map((d) => d.parameters);
    const text = JSON.stringify(noParamDescriptions);
    assert.doesNotMatch(text, /allowed directories|checks twice|whitespace included/);
    const out = compactToolDefinitions(defs, 1);
    assert.ok(out[0]!.description.length <= 80, out[0]!.description);
    assert.match(out[0]!.description, /^Change a file in place with careful checks/);
  });

  it('never drops a parameter, a type, an enum value or a required name', () => {
    for (const budget of [full - 10, full - 60, full / 2, 1]) {
      const out = compactToolDefinitions(defs, budget);
      out.forEach((d, i) => {
        assert.equal(d.name, defs[i]!.name);
        assert.deepEqual(skeleton(d.parameters), skeleton(defs[i]!.parameters), `budget ${budget}`);
      });
    }
  });

  it('keeps a property named "description"', () => {
    const out = compactToolDefinitions(defs, 1);
    const props = (out[0]!.parameters as { properties: Record<string, unknown> }).properties;
    assert.deepEqual(props.description, { type: 'string' });
    assert.deepEqual((out[0]!.parameters as { required: string[] }).required, ['path', 'description']);
  });

  it('does not modify its input', () => {
    const before = JSON.stringify(defs);
    compactToolDefinitions(defs, 1);
    assert.equal(JSON.stringify(defs), before);
  });

  it('shortens the biggest definitions first', () => {
    const small = tool('small_tool', 'Short. Two sentences here for sure.');
    const big = { ...tool('big_tool', DESCRIPTION), parameters: tool('x', '').parameters };
    const pair = [small, big];
    const total = estimateToolDefinitionTokens(pair);
    const out = compactToolDefinitions(pair, total - 20);
    assert.equal(out[0], small, 'the small tool was not needed to reach the budget');
    assert.notEqual(out[1], big);
  });

  it('takes a third off our built-ins plus the filesystem server without losing a parameter', () => {
    const all = realisticDefinitions();
    const before = estimateToolDefinitionTokens(all);
    const out = compactToolDefinitions(all, 1);
    const after = estimateToolDefinitionTokens(out);
    console.log(`25 realistic tools: ${before} → ${after} estimated tokens fully compacted`);
    assert.ok(before > 3000, `${before}`);
    assert.ok(after < before * 0.7, `${after}`);
    out.forEach((d, i) => assert.deepEqual(skeleton(d.parameters), skeleton(all[i]!.parameters)));
  });
});

describe('firstSentence', () => {
  it('takes the first sentence, not a stop inside an abbreviation near the start', () => {
    // Under 20 characters is too short to stand alone: the next sentence comes along.
    assert.equal(firstSentence('Read a file. Then more.', 200), 'Read a file. Then more.');
    assert.equal(firstSentence('Reads the whole file from disk. Then more text.', 200), 'Reads the whole file from disk.');
    assert.equal(firstSentence('Use e.g. globs like *.ts to match many files at once. Second.', 200), 'Use e.g. globs like *.ts to match many files at once.');
  });

  it('cuts at a word and marks the cut', () => {
    const out = firstSentence('word '.repeat(40).trim(), 30);
    assert.ok(out.length <= 30, out);
    assert.ok(out.endsWith('…'));
    assert.doesNotMatch(out, /wor…$/);
  });

  it('flattens whitespace', () => {
    assert.equal(firstSentence('  Line one\n  continues here without a stop', 200), 'Line one continues here without a stop');
  });
});
