// The webview's side of the channel: the VS Code API handle, typed posting, and validated receiving.
import type { HostToWebview, WebviewToHost } from '../src/shared/protocol';
import { parseHostMessage, summarizeMessage } from '../src/shared/protocol';

/** What `acquireVsCodeApi()` returns (only what we use). Tests pass a recording double. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export interface HostChannel {
  post(message: WebviewToHost): void;
}

export function createHostChannel(api: VsCodeApi): HostChannel {
  return { post: (message) => api.postMessage(message) };
}

/** Validates a message event from the host; invalid ones are logged and dropped (undefined). */
export function readHostMessage(data: unknown, log: (line: string) => void = (l) => console.warn(l)): HostToWebview | undefined {
  const parsed = parseHostMessage(data);
  if (parsed.ok) return parsed.message;
  log(`[localharness] dropped an invalid message from the host (${summarizeMessage(data)}): ${parsed.error}`);
  return undefined;
}
