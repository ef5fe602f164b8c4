// The SDK's real Client over an in-memory transport pair whose server side is scripted: a request the server sends
// twice with one id (as a replaying event store does) is answered once; a new id is answered again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerServerRequestsOnce } from '../../../src/mcp/replayGuard';

async function connected(guarded: boolean) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const fromClient: JSONRPCMessage[] = [];
  serverSide.onmessage = (message) => {
    fromClient.push(message);
    const m = message as { id?: number; method?: string };
    if (m.method === 'initialize') {
      void serverSide.send({ jsonrpc: '2.0', id: m.id!, result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: 'scripted', version: '1' } } });
    }
  };
  await serverSide.start();
  const log: string[] = [];
  if (guarded) answerServerRequestsOnce(clientSide, (line) => log.push(line));
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: {} } });
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: 'accept', content: { name: `answer ${asked}` } };
  });
  await client.connect(clientSide);
  const elicit = (id: number): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    method: 'elicitation/create',
    params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
  });
  const answers = () => fromClient.filter((m) => 'result' in m) as Array<{ id: number; result: { content?: { name: string } } }>;
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return { serverSide, elicit, answers, settle, log, asked: () => asked, client };
}

test('a replayed server request is not answered a second time; the log says why', async () => {
  const c = await connected(true);
  await c.serverSide.send(c.elicit(7));
  await c.settle();
  await c.serverSide.send(c.elicit(7)); // the replay
  await c.settle();
  await c.serverSide.send(c.elicit(8)); // a new request
  await c.settle();
  assert.equal(c.asked(), 2);
  assert.deepEqual(c.answers().map((a) => [a.id, a.result.content?.name]), [[7, 'answer 1'], [8, 'answer 2']]);
  assert.equal(c.log.length, 1);
  assert.match(c.log[0]!, /request 7 \(elicitation\/create\) again, a replayed event: it was answered once/);
  await c.client.close();
});

test('without the guard the SDK answers the replay again (what the guard is for)', async () => {
  const c = await connected(false);
  await c.serverSide.send(c.elicit(7));
  await c.settle();
  await c.serverSide.send(c.elicit(7));
  await c.settle();
  assert.equal(c.asked(), 2);
  assert.deepEqual(c.answers().map((a) => a.id), [7, 7]);
  await c.client.close();
});
