// The two wire formats a structured call is tested over: the fake server, the provider that talks to it, and
// where the request carries the structured-output schema.
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import type { ChatProvider } from '../../../src/core/provider';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';

export interface Wire {
  name: 'ollama' | 'openai';
  start(script: Script, name: string): Promise<{ server: FakeServerHandle; provider: ChatProvider }>;
  /** What the request body must carry for this schema. */
  expectedFormat(name: string, schema: Record<string, unknown>): { key: string; value: unknown };
}

export function wires(servers: FakeServerHandle[]): Wire[] {
  return [
    {
      name: 'ollama',
      async start(script, name) {
        const server = await startFakeOllamaServer(script, { name });
        servers.push(server);
        return { server, provider: new OllamaProvider({ host: server.url }) };
      },
      expectedFormat: (_name, schema) => ({ key: 'format', value: schema }),
    },
    {
      name: 'openai',
      async start(script, name) {
        const server = await startFakeOpenAIServer(script, { name });
        servers.push(server);
        return { server, provider: new OpenAICompatibleProvider({ baseUrl: server.url }) };
      },
      expectedFormat: (name, schema) => ({
        key: 'response_format',
        value: { type: 'json_schema', json_schema: { name, schema, strict: false } },
      }),
    },
  ];
}

export function signal(): AbortSignal {
  return new AbortController().signal;
}
