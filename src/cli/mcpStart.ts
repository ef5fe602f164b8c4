// What the `mcp` commands share: starting the one server they talk to, and giving up on Ctrl-C.
import { untilAborted as untilAbortedBy } from '../core/abortable';
import type { McpManager } from '../mcp/manager';
import type { McpServerStatus } from '../mcp/types';

export interface McpCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Starts one server and returns its status once it is ready; a name not in the file or a failed start throws. */
export async function startServer(manager: McpManager, name: string, configPath: string, signal: AbortSignal): Promise<McpServerStatus> {
  const names = manager.serverNames();
  if (!names.includes(name)) {
    throw new Error(`there is no MCP server named "${name}" in ${configPath}${names.length ? ` (servers: ${names.join(', ')})` : ' (it defines none)'}`);
  }
  await untilAborted(manager.start(name).catch(() => undefined), signal);
  const status = manager.status(name);
  if (status.state !== 'ready') throw new Error(`MCP server "${name}" is ${status.state}: ${status.message ?? 'it did not start'}`);
  return status;
}

/** Waits for `work`, but gives up as soon as `signal` aborts (the caller's `finally` then stops the servers). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAbortedBy(work, signal, () => new Error('interrupted'));
}
