// Models for the compression agent's own requests (recognisable because they offer get_compression_metadata;
// tools and texts as in src/core/compression/agentTools.ts). Pure functions of the request.
//   follows: lists, then compresses the listed tool results — clumsily the first time (an id as the string
//            "#3", a note as a number, a call without its required id), correctly after the error feedback —
//            and checks the target.
//   ignores: "Sure, I have compressed the conversation." without a tool call, or an empty reply, alternately.
import type { ChatBody, ScriptedReply, ScriptedToolCall } from '../fakeLlm';
import { readRequest, type RequestView } from './requestView';

export type CompressionBehaviour = 'follows' | 'ignores';

export const IGNORED_TEXT = 'Sure, I have compressed the conversation.';

export function compressionModel(behaviour: CompressionBehaviour): (request: ChatBody, index?: number) => ScriptedReply {
  return behaviour === 'follows' ? followsCompression : ignoresCompression;
}

export function isCompressionRequest(request: ChatBody): boolean {
  return readRequest(request).tools.some((t) => t.name === 'get_compression_metadata');
}

export function ignoresCompression(request: ChatBody): ScriptedReply {
  const answered = readRequest(request).messages.filter((m) => m.role === 'assistant').length;
  return answered % 2 === 0 ? { text: IGNORED_TEXT } : { text: '' };
}

interface Listed {
  id: number;
  excerpt: string;
}

export function followsCompression(request: ChatBody): ScriptedReply {
  const view = readRequest(request);
  const last = view.messages.at(-1);
  if (last?.role === 'tool' && /Nothing left that may be compressed/.test(last.content)) return { text: 'Nothing more to compress.' };
  const listingAt = lastIndexWhere(view, (content) => /Messages you may compress/.test(content));
  if (listingAt < 0) return calls({ name: 'get_compression_metadata', arguments: {} });
  if (last?.role === 'tool' && /Not yet/.test(last.content) && lastIndexWhere(view, (c) => /Not yet/.test(c)) > listingAt) {
    return calls({ name: 'get_compression_metadata', arguments: {} }); // list again after a failed check
  }
  const listing = view.messages[listingAt]!.content;
  const listed = listedToolResults(listing);
  if (listed.length === 0) return { text: 'Nothing more to compress.' };
  const handled = new Set<number>();
  for (const m of view.messages.slice(listingAt + 1)) {
    if (m.role !== 'tool') continue;
    for (const hit of m.content.matchAll(/(?:Compressed|#)\s*#?(\d+)(?::| cannot be compressed| is not a tool result)/g)) handled.add(Number(hit[1]));
  }
  const pending = listed.filter((l) => !handled.has(l.id));
  if (pending.length === 0) return calls({ name: 'verify_compression_target', arguments: {} });

  const triedBefore = view.messages.some((m) => m.calls.some((c) => c.name === 'compress_tool_result'));
  if (!triedBefore) {
    // First attempt: the schema filled the way weak models fill it.
    return calls(
      ...pending.map((l, i): ScriptedToolCall => {
        if (i === 0) return { name: 'compress_tool_result', arguments: { note: noteFor(l) } }; // required id missing
        if (i % 2 === 1) return { name: 'compress_tool_result', arguments: { id: `#${l.id}`, note: noteFor(l) } };
        return { name: 'compress_tool_result', arguments: { id: l.id, note: l.id } };
      }),
    );
  }
  return calls(
    ...pending.map((l): ScriptedToolCall => ({ name: 'compress_tool_result', arguments: { id: l.id, note: noteFor(l) } })),
    { name: 'verify_compression_target', arguments: {} },
  );
}

/** "#12 tool result ~540 tok: read_file note-03.txt (…) | note-03.txt (5 lines): Note 3 This paragraph…" */
function listedToolResults(listing: string): Listed[] {
  return [...listing.matchAll(/^#(\d+) tool result[^:]*: (.*)$/gm)].map((m) => ({ id: Number(m[1]), excerpt: m[2]! }));
}

/** What a weak model writes as "what mattered": the excerpt it was shown, cut short. */
function noteFor(l: Listed): string {
  const text = l.excerpt.split(' | ').slice(1).join(' | ') || l.excerpt;
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function lastIndexWhere(view: RequestView, test: (content: string) => boolean): number {
  for (let i = view.messages.length - 1; i >= 0; i--) {
    const m = view.messages[i]!;
    if (m.role === 'tool' && test(m.content)) return i;
  }
  return -1;
}

function calls(...toolCalls: ScriptedToolCall[]): ScriptedReply {
  return { toolCalls };
}
