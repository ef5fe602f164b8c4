// Images through the real CLI process against wire-faithful fake servers of both formats: `--image` reaches the
// server in each format's own field, a model that cannot see is refused before anything is sent, and read_file of
// a PNG gives a model that sees the picture (a model that cannot gets a note). Needs `npm run build`.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli/runCli';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { makePng } from '../../helpers/images/png';

type Msg = Record<string, unknown>;

interface Wire {
  name: string;
  start(script: Script, vision: boolean): Promise<FakeServerHandle>;
  flags(server: FakeServerHandle): string[];
  /** The base64 images the user message carried, read the way this wire carries them. */
  userImages(message: Msg): string[];
  /** The images that follow a tool result (on it for Ollama; a user message of image parts after it for OpenAI). */
  toolImages(messages: Msg[]): string[];
}

const dataOf = (url: unknown) => String(url).replace(/^data:image\/png;base64,/, '');
const imageParts = (m: Msg) =>
  Array.isArray(m.content) ? (m.content as Msg[]).filter((p) => p.type === 'image_url').map((p) => (p.image_url as Msg).url) : [];

const WIRES: Wire[] = [
  {
    name: 'ollama',
    start: (script, vision) =>
      startFakeOllamaServer(script, { models: [{ name: 'test-model', contextLength: 32768, capabilities: ['completion', 'tools', ...(vision ? ['vision'] : [])] }] }),
    flags: (s) => ['--provider', 'ollama', '--base-url', s.origin, '--model', 'test-model'],
    userImages: (m) => (m.images as string[] | undefined) ?? [],
    toolImages: (messages) => messages.filter((m) => m.role === 'tool').flatMap((m) => (m.images as string[] | undefined) ?? []),
  },
  {
    name: 'openai',
    start: (script, vision) => startFakeOpenAIServer(script, { models: [{ id: 'test-model', maxContextLength: 32768, loadedContextLength: 32768, vision }] }),
    // Native tool calls: tool results travel as `tool` messages (the text protocol makes them user messages).
    flags: (s) => ['--provider', 'openai', '--base-url', s.url, '--model', 'test-model', '--tool-protocol', 'native'],
    userImages: (m) => imageParts(m).map((u) => {
      assert.match(String(u), /^data:image\/png;base64,/);
      return dataOf(u);
    }),
    toolImages: (messages) => {
      const i = messages.findIndex((m) => m.role === 'tool');
      // Tool messages carry text only on this wire: the picture is in the user message right after the results.
      assert.equal(typeof messages[i]!.content, 'string');
      const next = messages.slice(i + 1).find((m) => m.role !== 'tool');
      return next && next.role === 'user' ? imageParts(next).map(dataOf) : [];
    },
  },
];

function workspace(): string {
  const ws = mkdtempSync(path.join(tmpdir(), 'lh-images-'));
  writeFileSync(path.join(ws, 'shot.png'), makePng(40, 30));
  return ws;
}

for (const wire of WIRES) {
  describe(`images over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    after(() => Promise.all(servers.map((s) => s.close())));
    const start = async (script: Script, vision: boolean) => {
      const s = await wire.start(script, vision);
      servers.push(s);
      return s;
    };

    test('--image reaches a vision model in the wire format\'s image field, with the task as text', async () => {
      const ws = workspace();
      const server = await start([{ text: 'A red rectangle.' }], true);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--json', '--image', 'shot.png', 'What is in this picture?'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 1);
      const messages = server.requests[0]!.messages as Msg[];
      const user = messages.filter((m) => m.role === 'user').at(-1)!;
      assert.deepEqual(wire.userImages(user), [makePng(40, 30).toString('base64')]);
      const text = typeof user.content === 'string' ? user.content : String(((user.content as Msg[])[0] as Msg).text);
      assert.match(text, /What is in this picture\?/);
      const turnStart = run.events.find((e) => e.type === 'turn_start')!;
      assert.deepEqual(turnStart.images, ['shot.png (40×30)']);
    });

    test('a model that cannot see is refused with the note, and nothing is sent', async () => {
      const ws = workspace();
      const server = await start([{ text: 'never sent' }], false);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--image', 'shot.png', 'What is in this picture?'], { cwd: ws });
      assert.equal(run.code, 1);
      assert.match(run.stdout + run.stderr, /test-model cannot see images: pick a vision model/);
      assert.equal(server.requests.length, 0);
    });

    test('--vision on overrides a server that does not say', async () => {
      const ws = workspace();
      const server = await start([{ text: 'seen' }], false);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--vision', 'on', '--image', 'shot.png', 'look'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const user = (server.requests[0]!.messages as Msg[]).filter((m) => m.role === 'user').at(-1)!;
      assert.equal(wire.userImages(user).length, 1);
    });

    test('a file that is no image is refused by name', async () => {
      const ws = workspace();
      writeFileSync(path.join(ws, 'fake.png'), 'not a picture\n');
      const server = await start([{ text: 'never sent' }], true);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--image', 'fake.png', 'look'], { cwd: ws });
      assert.equal(run.code, 1);
      assert.match(run.stdout + run.stderr, /fake\.png is not a PNG, JPEG, WebP or GIF image/);
      assert.equal(server.requests.length, 0);
    });

    test('read_file of a PNG gives a vision model the image', async () => {
      const ws = workspace();
      const server = await start([{ toolCalls: [{ name: 'read_file', arguments: { path: 'shot.png' } }] }, { text: 'It is red.' }], true);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'read', '--json', 'What colour is shot.png?'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 2);
      const messages = server.requests[1]!.messages as Msg[];
      assert.deepEqual(wire.toolImages(messages), [makePng(40, 30).toString('base64')]);
      const result = run.events.find((e) => e.type === 'tool_result')!;
      assert.match(String(result.content), /shot\.png is a PNG image of 40×30 pixels/);
    });

    test('read_file of a PNG gives a model that cannot see a note, and no image', async () => {
      const ws = workspace();
      const server = await start([{ toolCalls: [{ name: 'read_file', arguments: { path: 'shot.png' } }] }, { text: 'shot.png is a 40×30 PNG file.' }], false);
      const run = await runCli(['run', ...wire.flags(server), '--workspace', ws, '--approve', 'read', '--json', 'What colour is shot.png?'], { cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      const body = JSON.stringify(server.requests[1]);
      assert.doesNotMatch(body, /image_url|"images"/);
      assert.match(body, /cannot see images, so only this note is returned/);
    });
  });
}
