// Images in ACP prompts through `localharness acp` against wire-faithful fake servers of both formats: an image block
// (or an embedded image blob) reaches a vision model in the wire's own image field; a model that cannot see is
// refused before anything is sent, naming the model and --vision, and the session goes on; unsupported types,
// mislabelled bytes and oversize images are invalid params. Needs `npm run build`.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';
import { startAcpClient, agentText, type AcpTestClient } from '../../helpers/acp/acpClient';
import { makePng } from '../../helpers/images/png';

type Msg = Record<string, unknown>;

interface Wire {
  name: string;
  start(script: Script, vision: boolean): Promise<FakeServerHandle>;
  flags(server: FakeServerHandle): string[];
  /** The base64 images a user message carries, read the way this wire carries them. */
  userImages(message: Msg): string[];
}

const WIRES: Wire[] = [
  {
    name: 'ollama',
    start: (script, vision) =>
      startFakeOllamaServer(script, { models: [{ name: 'test-model', contextLength: 32768, capabilities: ['completion', 'tools', ...(vision ? ['vision'] : [])] }] }),
    flags: (s) => ['--provider', 'ollama', '--base-url', s.origin, '--model', 'test-model'],
    userImages: (m) => (m.images as string[] | undefined) ?? [],
  },
  {
    name: 'openai',
    start: (script, vision) => startFakeOpenAIServer(script, { models: [{ id: 'test-model', maxContextLength: 32768, loadedContextLength: 32768, vision }] }),
    flags: (s) => ['--provider', 'openai', '--base-url', s.url, '--model', 'test-model'],
    userImages: (m) =>
      (Array.isArray(m.content) ? (m.content as Msg[]) : [])
        .filter((p) => p.type === 'image_url')
        .map((p) => {
          const url = String((p.image_url as Msg).url);
          assert.match(url, /^data:image\/png;base64,/);
          return url.replace(/^data:image\/png;base64,/, '');
        }),
  },
];

const users = (request: Msg) => ((request.messages as Msg[] | undefined) ?? []).filter((m) => m.role === 'user');
const textOf = (m: Msg) =>
  typeof m.content === 'string' ? m.content : (m.content as Msg[]).filter((p) => p.type === 'text').map((p) => String(p.text)).join('\n');
const invalid = (pattern: RegExp) => (e: acp.RequestError) => {
  assert.equal(e.code, -32602, e.message);
  assert.match(e.message, pattern);
  return true;
};

for (const wire of WIRES) {
  describe(`ACP images over ${wire.name}`, () => {
    const servers: FakeServerHandle[] = [];
    const clients: AcpTestClient[] = [];
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(servers.map((s) => s.close()));
    });
    const setup = async (script: Script, vision: boolean, extra: string[] = []) => {
      const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'lh-acp-images-')));
      const server = await wire.start(script, vision);
      servers.push(server);
      const c = startAcpClient({ args: [...wire.flags(server), ...extra], cwd: ws, permission: 'once' });
      clients.push(c);
      const init = await c.initialize();
      const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      return { server, c, init, sessionId };
    };

    test('an image block reaches a vision model in the wire format\'s image field, with the text beside it', async () => {
      const { server, c, init, sessionId } = await setup([{ text: 'A red rectangle.' }, { text: 'A green square.' }], true);
      assert.equal(init.agentCapabilities?.promptCapabilities?.image, true);
      const png = makePng(40, 30).toString('base64');
      const first = await c.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', data: png, mimeType: 'image/png', uri: 'file:///tmp/shot.png' }],
      });
      assert.equal(first.stopReason, 'end_turn', c.stderr());
      assert.equal(server.requests.length, 1);
      const user = users(server.requests[0]!).at(-1)!;
      assert.deepEqual(wire.userImages(user), [png]);
      assert.match(textOf(user), /What is in this picture\?/);

      // An embedded resource whose blob is an image travels as an image too (a pasted screenshot from some clients).
      const green = makePng(16, 16, [20, 200, 20]).toString('base64');
      const second = await c.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'And this one?' }, { type: 'resource', resource: { uri: 'file:///tmp/green.png', blob: green, mimeType: 'image/png' } }],
      });
      assert.equal(second.stopReason, 'end_turn', c.stderr());
      assert.equal(server.requests.length, 2);
      assert.deepEqual(wire.userImages(users(server.requests[1]!).at(-1)!), [green]);
      await c.settled();
      assert.match(agentText(c, sessionId), /A green square\./);
    });

    test('a model that cannot see: the prompt is refused naming the model and --vision, nothing is sent, the session goes on', async () => {
      const { server, c, sessionId } = await setup([{ text: 'Hello.' }], false);
      const png = makePng(8, 8).toString('base64');
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'SEE-THIS-7' }, { type: 'image', data: png, mimeType: 'image/png' }] }),
        invalid(/test-model cannot see images.*--vision to "on".*Nothing was sent/s),
      );
      assert.equal(server.requests.length, 0, 'no chat request for a refused prompt');

      // The refused prompt left nothing behind: the next one is sent alone.
      const next = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Just say hello.' }] });
      assert.equal(next.stopReason, 'end_turn', c.stderr());
      assert.equal(server.requests.length, 1);
      const sent = JSON.stringify(server.requests[0]!.messages);
      assert.doesNotMatch(sent, /SEE-THIS-7/);
      assert.ok(users(server.requests[0]!).every((m) => wire.userImages(m).length === 0));
    });

    test('--vision on sends the image to a model the server does not mark as seeing', async () => {
      const { server, c, sessionId } = await setup([{ text: 'A red rectangle.' }], false, ['--vision', 'on']);
      const png = makePng(12, 12).toString('base64');
      const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'image', data: png, mimeType: 'image/png' }] });
      assert.equal(stopReason, 'end_turn', c.stderr());
      assert.equal(server.requests.length, 1);
      assert.deepEqual(wire.userImages(users(server.requests[0]!).at(-1)!), [png]);
    });

    test('an unsupported type, mislabelled bytes, bad base64 or an oversize image is invalid params; nothing is sent', async () => {
      const { server, c, sessionId } = await setup([], true);
      const prompt = (block: acp.ContentBlock) => c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Look.' }, block] });
      const png = makePng(8, 8).toString('base64');
      await assert.rejects(prompt({ type: 'image', data: Buffer.from('<svg/>').toString('base64'), mimeType: 'image/svg+xml' }), invalid(/image\/svg\+xml are not accepted; send PNG, JPEG, WebP or GIF/));
      await assert.rejects(prompt({ type: 'image', data: png, mimeType: 'image/jpeg', uri: 'file:///tmp/photo.jpg' }), invalid(/photo\.jpg is declared image\/jpeg but its bytes are image\/png/));
      await assert.rejects(prompt({ type: 'image', data: Buffer.from('just text').toString('base64'), mimeType: 'image/png' }), invalid(/image 1 is not a PNG, JPEG, WebP or GIF image/));
      await assert.rejects(prompt({ type: 'image', data: 'not base64!', mimeType: 'image/png' }), invalid(/not base64/));
      // Just over the limit the CLI uses (4 MB), a PNG header then padding: refused by its size alone.
      const big = Buffer.concat([makePng(8, 8), Buffer.alloc(4 * 1024 * 1024)]).toString('base64');
      await assert.rejects(prompt({ type: 'image', data: big, mimeType: 'image/png', uri: 'file:///tmp/huge.png' }), invalid(/huge\.png is 4\.\d+ MB; images up to 4(\.0)? MB are sent/));
      assert.equal(server.requests.length, 0);
    });
  });
}
