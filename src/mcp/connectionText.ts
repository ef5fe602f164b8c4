// Small text and timing helpers of the MCP connection.
import { errorMessage as sharedErrorMessage } from '../shared/format';

export function formatProgress(p: { progress: number; total?: number; message?: string }): string {
  const amount = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
  return p.message ? `${p.message} (${amount})` : `progress ${amount}`;
}

export function errorMessage(err: unknown): string {
  // A server that throws an McpError sends its message with the "MCP error N:" prefix, and the client adds it again.
  return sharedErrorMessage(err).replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, '$1');
}

/** Longest protocol error kept in the server's log: a replaying server sends whole earlier results again. */
const PROTOCOL_ERROR_CHARS = 300;

/**
 * A protocol error in one log line: a message that is not JSON-RPC (the SDK's schema error spans dozens of lines)
 * named as such, anything else cut to its first line and a few hundred characters.
 */
export function protocolErrorLine(err: unknown): string {
  if ((err as { name?: unknown })?.name === 'ZodError') return 'a message that is not valid JSON-RPC was ignored';
  const text = errorMessage(err).split('\n')[0]!;
  return text.length > PROTOCOL_ERROR_CHARS ? `${text.slice(0, PROTOCOL_ERROR_CHARS)}… (${text.length} characters)` : text;
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
