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
/**
 * A port nothing listens on. Taken below Linux's ephemeral range (32768+): a port just freed from that range can be
 * handed to another test process's `listen(0)` before this test connects, which then finds a server there.
 */
export async function closedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue; // something is there: try another
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
  throw new Error('no free port below the ephemeral range');
}

export function signal(): AbortSignal {
  return new AbortController().signal;
}
