// Recorded wire transcripts (test/fixtures/wire/) and a server that replays one response body byte
// for byte, optionally in small TCP writes to exercise the client's SSE reassembly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type FakeServerHandle } from './httpHarness';

export interface Transcript {
  method: string;
  url: string;
  /** The recorded request body (parsed JSON). */
  request: Record<string, unknown>;
  status: number;
  headers: Record<string, string>;
  /** The raw response body bytes. */
  body: Buffer;
}

export const WIRE_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'wire');

/** Reads e.g. `openai-compatible/agentmode.plain_stream.txt` from test/fixtures/wire. */
export function loadTranscript(relativePath: string): Transcript {
  return parseTranscript(readFileSync(join(WIRE_FIXTURES, relativePath)));
}

export function parseTranscript(raw: Buffer): Transcript {
  const text = raw.toString('latin1'); // 1 byte = 1 char, so indexes are byte offsets
  const statusAt = text.indexOf('\nHTTP ');
  if (statusAt < 0) throw new Error('transcript: no "HTTP <status>" line');
  const headEnd = text.indexOf('\n\n', statusAt + 1);
  if (headEnd < 0) throw new Error('transcript: no blank line after the response headers');
  const requestPart = raw.subarray(0, statusAt).toString('utf8').trim();
  const newline = requestPart.indexOf('\n');
  const [method = '', url = ''] = requestPart.slice(0, newline).split(' ');
  const request = JSON.parse(requestPart.slice(newline + 1)) as Record<string, unknown>;
  const headLines = text.slice(statusAt + 1, headEnd).split('\n');
  const status = Number(headLines[0]?.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headLines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method, url, request, status, headers, body: raw.subarray(headEnd + 2) };
}

export interface ReplayOptions {
  /** Write the body in pieces of this many bytes (default: all at once). */
  chunkBytes?: number;
}

/** Serves the transcript's response for every `POST /v1/chat/completions`; `url` ends in `/v1`. */
export async function startTranscriptServer(transcript: Transcript, options: ReplayOptions = {}): Promise<FakeServerHandle> {
  const harness = await startHarness(async ({ path, method, body, reply }) => {
    if (method !== 'POST' || path !== '/v1/chat/completions') {
      reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
      return;
    }
    if (body && typeof body === 'object' && !Array.isArray(body)) harness.recordChat(body as Record<string, unknown>);
    const headers = { ...transcript.headers };
    // Framing headers describe the recorded connection, not ours; node sets its own.
    delete headers['transfer-encoding'];
    delete headers['content-length'];
    delete headers['keep-alive'];
    reply.res.writeHead(transcript.status, headers);
    const size = options.chunkBytes ?? transcript.body.length;
    for (let at = 0; at < transcript.body.length; at += size) {
      if (reply.gone) return;
      reply.res.write(transcript.body.subarray(at, at + size));
      // Separate TCP writes so the client really sees the body in pieces.
      if (options.chunkBytes) await reply.sleep(1);
    }
    reply.end();
  }, '/v1');
  return harness.handle;
}
