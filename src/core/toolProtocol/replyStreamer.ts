// One model call with the tool protocol applied: streams thinking and visible text to a sink, separates
// `<think>` blocks, and turns calls written as text (`<tool>` blocks, each model family's own syntax, JSON) into
// tool calls, hidden from the answer. Tool calls are only returned, never run here.
import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolDefinition } from '../messages';
import { toChatRequest, type ChatProvider, type ReadingProgress, type RoundReply } from '../provider';
import { readDeltas } from '../streamDeltas';
import { CallTextReader, type ReadPiece } from './callTextReader';
import type { CallValidator } from './jsonRecovery';
import type { ToolProtocol } from './protocolSetting';
import { TagStreamSplitter, type TagSegment } from './tagStream';
import type { ToolBlockError } from './toolBlock';
import type { ToolIndex } from './toolIndex';
import type { CallSyntaxId, Region } from './writtenCalls';

/** Where the streamed parts of a reply go (the event bus, through the retry guard). */
export interface ReplySink {
  text(text: string): void;
  thinking(text: string): void;
  /** `reading`: the server is reading the prompt, this far. */
  status(message: string, reading?: ReadingProgress): void;
}

export interface ModelCallRequest {
  provider: ChatProvider;
  model: string;
  messages: ChatMessage[];
  signal: AbortSignal;
  think?: boolean;
  contextSize?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface ReplyParsing {
  mode: ToolProtocol;
  /** The tools offered on this call (sent natively); empty for a request without tools. */
  index: ToolIndex;
  /** Tools a call may name (default: `index`): a weak model may call one it saw before but that this call did not offer. */
  known?: ToolIndex;
  /** Whether a call recovered from JSON text is runnable (the family syntaxes are unambiguous and need no check). */
  validate: CallValidator;
  newId?: () => string;
}

export interface ProtocolReply extends RoundReply {
  /** Problems with calls written as text (`<tool>` blocks, family syntaxes), for corrective feedback. */
  protocolErrors: ToolBlockError[];
  /** Names of calls read from text in a syntax other than the text protocol's `<tool>` blocks. */
  recovered: string[];
  /** The syntaxes of the calls (and unreadable calls) written as text, in the order first seen. */
  syntaxes: CallSyntaxId[];
  /**
   * The server stopped the reply at its output limit (`length`). Its calls, native or written, are dropped: a cut
   * call is never run. `calls`: the dropped calls' names; `partialCall`: a call was cut or dropped.
   */
  cut?: { calls: string[]; partialCall: boolean };
}

export async function streamProtocolReply(request: ModelCallRequest, parsing: ReplyParsing, sink: ReplySink): Promise<ProtocolReply> {
  const newId = parsing.newId ?? (() => `call_${randomUUID().slice(0, 8)}`);
  const reply: ProtocolReply = { text: '', thinking: '', toolCalls: [], finishReason: '', protocolErrors: [], recovered: [], syntaxes: [] };
  const nativeTools: ToolDefinition[] = parsing.mode === 'native' ? parsing.index.tools.map((t) => t.definition) : [];
  // `known`: what a call may name. Even a request without tools (a final summary request) may get a call back
  // from a model that recovered; the caller passes the registry then, and the call runs through the gate.
  const known = parsing.known ?? parsing.index;
  const think = new TagStreamSplitter({ tags: ['think'], streamBlocks: true });
  // Every mode reads the call syntaxes of the table: a model that writes its own family's call syntax into the
  // text (the server did not parse it) means a call; the call text is never shown as an answer.
  const reader = new CallTextReader({ known, validate: parsing.validate, newId });
  let regions = 0;
  let unfinished = false;

  const onThinking = (text: string) => {
    if (!text) return;
    reply.thinking += text;
    sink.thinking(text);
  };
  const onVisible = (text: string) => {
    if (!text) return;
    reply.text += text;
    sink.text(text);
  };
  const onRegion = (region: Region) => {
    if (region.thinking) onThinking(region.thinking);
    if (region.prose !== undefined) onVisible(region.prose);
    if (region.calls.length === 0 && region.errors.length === 0) return;
    regions++;
    if (known.size === 0) return; // nothing could be called: drop stray call text
    if (region.unfinished) unfinished = true;
    if (!reply.syntaxes.includes(region.syntax)) reply.syntaxes.push(region.syntax);
    reply.toolCalls.push(...region.calls);
    reply.protocolErrors.push(...region.errors);
    if (region.syntax !== 'text-protocol') reply.recovered.push(...region.calls.map((c) => c.name));
  };
  const readStage = (pieces: ReadPiece[]) => {
    for (const p of pieces) {
      if (p.kind === 'text') onVisible(p.text);
      else onRegion(p.region);
    }
  };
  const textStage = (segments: TagSegment[]) => {
    for (const s of segments) {
      if (s.kind === 'block_part') onThinking(s.text);
      else if (s.kind === 'text') readStage(reader.push(s.text));
    }
  };

  await readDeltas(request.provider.chat(toChatRequest(request, nativeTools)), {
    status: (message, reading) => sink.status(message, reading),
    thinking: onThinking,
    text: (text) => textStage(think.push(text)),
    toolCall: (call) => reply.toolCalls.push(call),
    usage: (usage) => (reply.usage = usage),
    done: (finishReason) => (reply.finishReason = finishReason),
  });

  textStage(think.end().segments);
  readStage(reader.end());
  if (parsing.mode === 'xml' || regions > 0) reply.text = reply.text.replace(/\n{3,}/g, '\n\n').trim();

  if (reply.finishReason === 'length') {
    // A reply cut at the output limit: whatever call it holds may be cut too, so none of them runs.
    reply.cut = { calls: reply.toolCalls.map((c) => c.name), partialCall: unfinished || reply.toolCalls.length > 0 || reply.protocolErrors.length > 0 };
    reply.toolCalls = [];
    reply.protocolErrors = [];
    reply.recovered = [];
  }
  return reply;
}
