// Runs the same scripted conversation over both wire formats: each test gets a fake server and the CLI flags for it.
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../fakeLlm';

export interface WireFormat {
  name: 'ollama' | 'openai';
  start(script: Script, name: string): Promise<FakeServerHandle>;
  /** CLI flags pointing at the server. */
  flags(server: FakeServerHandle): string[];
}

export const WIRE_FORMATS: WireFormat[] = [
  {
    name: 'ollama',
    start: (script, name) => startFakeOllamaServer(script, { name }),
    flags: (server) => ['--provider', 'ollama', '--base-url', server.origin, '--model', 'test-model'],
  },
  {
    name: 'openai',
    start: (script, name) => startFakeOpenAIServer(script, { name }),
    flags: (server) => ['--provider', 'openai', '--base-url', server.url, '--model', 'test-model'],
  },
];

/** Messages of a recorded request, normalised across wire formats: role, content, tool call names. */
export function messagesOf(request: { messages?: Array<Record<string, unknown>> }): Array<{ role: string; content: string; toolCalls: string[] }> {
  return (request.messages ?? []).map((m) => ({
    role: String(m.role),
    content: typeof m.content === 'string' ? m.content : '',
    toolCalls: ((m.tool_calls as Array<{ function: { name: string } }> | undefined) ?? []).map((c) => c.function.name),
  }));
}

export function toolResults(request: { messages?: Array<Record<string, unknown>> }): string[] {
  return messagesOf(request)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}
