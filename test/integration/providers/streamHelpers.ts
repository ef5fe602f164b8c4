// Small helpers for provider tests: drain a stream, pick deltas by type, find a port nobody listens on.
import { createServer } from 'node:net';
import type { StreamDelta } from '../../../src/core/provider';
import { ProviderError } from '../../../src/core/provider';

export async function collect(stream: AsyncIterable<StreamDelta>): Promise<StreamDelta[]> {
  const out: StreamDelta[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

/** Drains the stream and returns what arrived before the error, plus the error (which must be a ProviderError). */
export async function collectUntilError(stream: AsyncIterable<StreamDelta>): Promise<{ deltas: StreamDelta[]; error: ProviderError }> {
  const deltas: StreamDelta[] = [];
  try {
    for await (const delta of stream) deltas.push(delta);
  } catch (err) {
    if (err instanceof ProviderError) return { deltas, error: err };
    throw err;
  }
  throw new Error(`expected the stream to fail, it ended normally with ${JSON.stringify(deltas.slice(-3))}`);
}

export function textOf(deltas: StreamDelta[]): string {
  return deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
}

export function thinkingOf(deltas: StreamDelta[]): string {
  return deltas.map((d) => (d.type === 'thinking' ? d.text : '')).join('');
}

export function ofType<T extends StreamDelta['type']>(deltas: StreamDelta[], type: T): Array<Extract<StreamDelta, { type: T }>> {
  return deltas.filter((d): d is Extract<StreamDelta, { type: T }> => d.type === type);
}

/** A port that was free a moment ago: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function signal(): AbortSignal {
  return new AbortController().signal;
}
