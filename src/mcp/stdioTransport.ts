// The SDK's stdio transport, reporting the child's pid the moment it spawns and its stderr line by line.
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from './ringBuffer';
import type { McpSdk } from './sdk';
import type { StdioTransportConfig } from './types';

export interface StdioTransportHooks {
  onSpawn(pid: number): void;
  onStderr(line: string): void;
}

export function createStdioTransport(sdk: McpSdk, t: StdioTransportConfig, hooks: StdioTransportHooks): StdioClientTransport {
  class PidReportingTransport extends sdk.StdioClientTransport {
    override async start(): Promise<void> {
      await super.start();
      if (this.pid !== null) hooks.onSpawn(this.pid);
    }
  }
  const transport = new PidReportingTransport({
    command: t.command,
    args: t.args,
    env: t.env,
    ...(t.cwd !== undefined && { cwd: t.cwd }),
    stderr: 'pipe',
  });
  const stream = transport.stderr;
  if (stream) {
    const splitter = new LineSplitter(hooks.onStderr);
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer | string) => splitter.write(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    stream.on('end', () => splitter.flush());
  }
  return transport;
}
