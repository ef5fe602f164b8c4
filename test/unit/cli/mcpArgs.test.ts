// Parsing of `localharness mcp list|resource|prompt|login|logout` and of `run --allow-sampling`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCli, parseNamedArgs, USAGE, UsageError, type RunOptions } from '../../../src/cli/args';

const parse = (...argv: string[]) => parseCli(argv, {}, '/ws');

function usageError(argv: string[], message: RegExp): void {
  assert.throws(() => parse(...argv), (e: unknown) => e instanceof UsageError && message.test(e.message), `argv: ${argv.join(' ')}`);
}

test('mcp list: the config file, the workspace (default: cwd) and --json', () => {
  assert.deepEqual(parse('mcp', 'list', '--mcp-config', 'm.json'), { command: 'mcp', action: 'list', mcpConfig: 'm.json', workspace: '/ws', json: false });
  assert.deepEqual(parse('mcp', 'list', '--json', '--mcp-config', 'm.json', '--workspace', '/other'), {
    command: 'mcp',
    action: 'list',
    mcpConfig: 'm.json',
    workspace: '/other',
    json: true,
  });
});

test('mcp resource: SERVER URI, repeatable --arg, --out', () => {
  assert.deepEqual(parse('mcp', 'resource', '--mcp-config', 'm.json', 'everything', 'demo://resource/static/document/features.md'), {
    command: 'mcp',
    action: 'resource',
    mcpConfig: 'm.json',
    workspace: '/ws',
    json: false,
    server: 'everything',
    uri: 'demo://resource/static/document/features.md',
    args: {},
  });
  const templated = parse('mcp', 'resource', '--mcp-config', 'm.json', 'everything', 'Dynamic Blob Resource', '--arg', 'resourceId=3', '--out', 'b.bin');
  assert.deepEqual(templated, {
    command: 'mcp',
    action: 'resource',
    mcpConfig: 'm.json',
    workspace: '/ws',
    json: false,
    server: 'everything',
    uri: 'Dynamic Blob Resource',
    args: { resourceId: '3' },
    out: 'b.bin',
  });
});

test('mcp prompt: SERVER NAME with --arg NAME=VALUE (value may be empty or contain "=")', () => {
  const options = parse('mcp', 'prompt', '--mcp-config', 'm.json', 'everything', 'args-prompt', '--arg', 'city=Paris', '--arg', 'state=', '--arg', 'q=a=b');
  assert.deepEqual(options, {
    command: 'mcp',
    action: 'prompt',
    mcpConfig: 'm.json',
    workspace: '/ws',
    json: false,
    server: 'everything',
    name: 'args-prompt',
    args: { city: 'Paris', state: '', q: 'a=b' },
  });
});

test('mcp login / logout: one SERVER', () => {
  assert.deepEqual(parse('mcp', 'login', '--mcp-config', 'm.json', 'docs'), { command: 'mcp', action: 'login', mcpConfig: 'm.json', workspace: '/ws', json: false, server: 'docs' });
  assert.deepEqual(parse('mcp', 'logout', 'docs', '--mcp-config', 'm.json'), { command: 'mcp', action: 'logout', mcpConfig: 'm.json', workspace: '/ws', json: false, server: 'docs' });
});

test('mcp: a missing or unknown subcommand, missing config, wrong operand counts are usage errors', () => {
  usageError(['mcp'], /missing mcp command: mcp list, mcp resource, mcp prompt, mcp login or mcp logout/);
  usageError(['mcp', 'show', '--mcp-config', 'm.json'], /unknown mcp command "show" \(list, resource, prompt, login or logout\)/);
  usageError(['mcp', 'login', '--mcp-config', 'm.json'], /`mcp login` takes SERVER: localharness mcp login --mcp-config FILE SERVER/);
  usageError(['mcp', 'logout', '--mcp-config', 'm.json', 'a', 'b'], /`mcp logout` takes SERVER, got "a" "b"/);
  usageError(['mcp', 'login', 'docs'], /missing --mcp-config FILE: localharness mcp login --mcp-config FILE SERVER/);
  usageError(['mcp', 'logout', '--mcp-config', 'm.json', '--arg', 'a=b', 'docs'], /--arg only works with `mcp resource` and `mcp prompt`/);
  usageError(['mcp', 'list'], /missing --mcp-config FILE: localharness mcp list --mcp-config FILE/);
  usageError(['mcp', 'list', '--mcp-config', ' '], /missing --mcp-config FILE/);
  usageError(['mcp', 'list', '--mcp-config', 'm.json', 'extra'], /`mcp list` takes no arguments, got "extra"/);
  usageError(['mcp', 'resource', '--mcp-config', 'm.json', 'everything'], /`mcp resource` takes SERVER and URI, got "everything"/);
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 'a', 'b', 'c'], /`mcp prompt` takes SERVER and PROMPT/);
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 'a', ' '], /`mcp prompt` takes SERVER and PROMPT/);
});

test('mcp: options of other commands are refused by name; --out and --arg only where they apply', () => {
  usageError(['mcp', 'list', '--mcp-config', 'm.json', '--model', 'x'], /--model does not apply to `mcp list`/);
  usageError(['mcp', 'list', '--mcp-config', 'm.json', '--allow-sampling'], /--allow-sampling does not apply to `mcp list`/);
  usageError(['mcp', 'list', '--mcp-config', 'm.json', '--mode', 'full'], /--mode only works with `index`/);
  usageError(['mcp', 'list', '--mcp-config', 'm.json', '--arg', 'a=b'], /--arg only works with `mcp resource` and `mcp prompt`/);
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 's', 'p', '--out', 'f'], /--out only works with `mcp resource`/);
  usageError(['mcp', 'resource', '--mcp-config', 'm.json', 's', 'u', '--out', ''], /--out needs a file name/);
  usageError(['run', '--arg', 'a=b', 'task'], /--arg only works with `mcp resource` and `mcp prompt`/);
  usageError(['run', '--out', 'f', 'task'], /--out only works with `mcp resource`/);
  usageError(['query', '--arg', 'a=b', 'text'], /--arg only works/);
});

test('--arg must be NAME=VALUE, each name once', () => {
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 's', 'p', '--arg', 'city'], /--arg must look like NAME=VALUE, got "city"/);
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 's', 'p', '--arg', '=Paris'], /--arg must look like NAME=VALUE, got "=Paris"/);
  usageError(['mcp', 'prompt', '--mcp-config', 'm.json', 's', 'p', '--arg', 'city=a', '--arg', 'city=b'], /--arg city is given twice/);
  assert.deepEqual(parseNamedArgs([' city =Paris ']), { city: 'Paris ' }, 'the name is trimmed, the value kept as typed');
  assert.deepEqual(parseNamedArgs([]), {});
});

test('run --allow-sampling needs --mcp-config and is off by default', () => {
  const on = parse('run', '--mcp-config', 'm.json', '--allow-sampling', 'task') as RunOptions;
  assert.equal(on.allowSampling, true);
  assert.equal((parse('run', '--mcp-config', 'm.json', 'task') as RunOptions).allowSampling, false);
  usageError(['run', '--allow-sampling', 'task'], /--allow-sampling only works together with --mcp-config FILE/);
  usageError(['index', '--allow-sampling', 'src'], /--allow-sampling does not apply to `index`/);
});

test('the usage text documents the mcp commands and --allow-sampling', () => {
  for (const line of ['localharness mcp list --mcp-config FILE', 'localharness mcp resource', 'localharness mcp prompt', 'localharness mcp login', 'localharness mcp logout', '--allow-sampling', '--arg NAME=VALUE', '--out FILE']) {
    assert.ok(USAGE.includes(line), `USAGE mentions ${line}`);
  }
});
