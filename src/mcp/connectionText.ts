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

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
