// Models for the compression pass's requests (recognisable by the request head the pass appends to the
// conversation; texts as in src/core/compression/modelPass.ts). Pure functions of the request.
//   follows: summarises the messages listed in the newest request as JSON — clumsily the first time (an object
//            where a list was wanted, an id as the string "#3", a summary as a number, an item without its id,
//            an extra field), correctly after the feedback — and goes on with what is listed next.
//   follows under a grammar (the server applies the response format): the same summaries, right at once — decoding
//            under the schema it cannot write the clumsy shape.
//   ignores: "Sure, I have compressed the conversation." without JSON, or an empty reply, alternately.
import { COMPRESSION_REQUEST_HEAD } from '../../../src/core/compression/modelPass';
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { readRequest, type RequestView } from './requestView';

export type CompressionBehaviour = 'follows' | 'ignores';

export const IGNORED_TEXT = 'Sure, I have compressed the conversation.';

export function compressionModel(behaviour: CompressionBehaviour): (request: ChatBody, index?: number) => ScriptedReply {
  return behaviour === 'follows' ? followsCompression : ignoresCompression;
}

/** The pass continues the conversation with a user message opened by its head (or starts a small one with it). */
export function isCompressionRequest(request: ChatBody): boolean {
  return readRequest(request).messages.some((m) => m.role === 'user' && m.content.includes(COMPRESSION_REQUEST_HEAD));
}

export function ignoresCompression(request: ChatBody): ScriptedReply {
  const answered = passReplies(readRequest(request)).length;
  return answered % 2 === 0 ? { text: IGNORED_TEXT } : { text: '' };
}

interface Listed {
  id: number;
  role: string;
  line: string;
}

export function followsCompression(request: ChatBody): ScriptedReply {
  return summarise(request, false);
}

function summarise(request: ChatBody, constrained: boolean): ScriptedReply {
  const view = readRequest(request);
  const last = view.messages.at(-1);
  const listed = last?.role === 'user' ? listedMessages(last.content) : [];
  if (listed.length === 0) return { text: constrained ? JSON.stringify({ summaries: [] }) : 'Nothing more to summarise.' };
  const summaries = listed.map((l) => ({ id: l.id, summary: noteFor(l) }));
  if (constrained || passReplies(view).length > 0) return { text: JSON.stringify({ summaries }) };
  // The first answer, the way weak models fill a schema: an object where a list was asked for.
  const [first, ...rest] = summaries;
  return {
    text: `Here are the summaries:\n\`\`\`json\n${JSON.stringify({ summaries: { id: `#${first!.id}`, summary: first!.summary, ok: true }, more: rest })}\n\`\`\``,
  };
}

/** The following model on a server that applies the response format (fakeLlm `appliesResponseFormat`). */
export function followsUnderGrammar(request: ChatBody): ScriptedReply {
  return summarise(request, true);
}

/** The pass's own earlier replies in this request (after its head). */
function passReplies(view: RequestView): string[] {
  const at = view.messages.findIndex((m) => m.role === 'user' && m.content.includes(COMPRESSION_REQUEST_HEAD));
  return at < 0 ? [] : view.messages.slice(at).filter((m) => m.role === 'assistant').map((m) => m.content);
}

/** "#12 tool result ~540 tok: read_file note-03.txt lines all 5 …" */
function listedMessages(text: string): Listed[] {
  return [...text.matchAll(/^#(\d+) (tool result|user|assistant)[^:]*: (.*)$/gm)].map((m) => ({ id: Number(m[1]), role: m[2]!, line: m[3]! }));
}

/** What a weak model writes as "what mattered": the line it was shown, cut short. */
function noteFor(l: Listed): string {
  const text = l.line.split(' | ').slice(1).join(' | ') || l.line;
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
