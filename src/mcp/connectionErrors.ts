// What a failed start or call tells the user: the cause in words, the stderr tail, the stdout-logging hint.
import { SignInFailed } from './auth/types';
import { errorMessage } from './connectionText';
import { McpCallError, type CallOptions } from './connectionTypes';
import type { McpSdk } from './sdk';
import { seconds, StartTimedOut } from './startDeadline';
import type { McpServerConfig } from './types';

export interface ErrorContext {
  sdk: McpSdk;
  config: McpServerConfig;
  startTimeoutMs: number;
  /** The caller cancelled the start. */
  startCancelled: boolean;
  /** Lines the server wrote to stdout that were not JSON-RPC. */
  protocolErrors: readonly string[];
  stderrTail(): string;
  /** Waits briefly for a dying process's last output. */
  settle(): Promise<void>;
  /** The failure was the server asking for a sign-in. */
  isChallenge(err: unknown): boolean;
}

export function isMcpError(sdk: McpSdk, err: unknown, code: 'RequestTimeout' | 'ConnectionClosed'): boolean {
  return err instanceof sdk.McpError && err.code === sdk.ErrorCode[code];
}

export async function describeStartError(err: unknown, c: ErrorContext): Promise<string> {
  const t = c.config.transport;
  let reason: string;
  if (c.startCancelled) reason = 'the start was cancelled';
  else if (err instanceof StartTimedOut || err instanceof SignInFailed || c.isChallenge(err)) reason = (err as Error).message;
  else if ((err as NodeJS.ErrnoException)?.code === 'ENOENT' && t.type === 'stdio') {
    reason = `the command "${t.command}" was not found (is it installed and on PATH?${t.cwd ? `, working directory ${t.cwd}` : ''})`;
  } else if (isMcpError(c.sdk, err, 'RequestTimeout')) {
    reason = `no answer to the MCP handshake within ${seconds(c.startTimeoutMs)}`;
  } else if (isMcpError(c.sdk, err, 'ConnectionClosed')) {
    await c.settle();
    reason = 'the process exited during the MCP handshake';
  } else reason = errorMessage(err);
  const protocol = c.protocolErrors.length
    ? `. It wrote output that is not MCP JSON-RPC to stdout (${c.protocolErrors[0]}); an MCP server must write only protocol messages to stdout and log to stderr`
    : '';
  return `MCP server "${c.config.name}" failed to start: ${reason}${protocol}.${c.stderrTail()}`;
}

export async function describeCallError(err: unknown, options: CallOptions, c: ErrorContext): Promise<McpCallError> {
  const name = c.config.name;
  if (options.signal.aborted) return new McpCallError('Cancelled while the MCP tool was running; the server was told to stop.', 'cancelled');
  if (err instanceof SignInFailed) return new McpCallError(`MCP server "${name}" could not run the tool: ${err.message}.`, 'server');
  if (isMcpError(c.sdk, err, 'RequestTimeout')) {
    return new McpCallError(
      `MCP server "${name}" did not answer within ${seconds(options.timeoutMs)} (the timeout restarts on every progress report); the call was cancelled.`,
      'timeout',
    );
  }
  if (isMcpError(c.sdk, err, 'ConnectionClosed') || (err instanceof Error && err.message === 'Not connected')) {
    await c.settle();
    return new McpCallError(`MCP server "${name}" stopped during the call (it crashed or exited). Other tools still work.${c.stderrTail()}`, 'closed');
  }
  return new McpCallError(`MCP server "${name}" failed the call: ${errorMessage(err)}`, 'server');
}
