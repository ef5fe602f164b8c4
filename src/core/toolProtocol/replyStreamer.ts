// One model call with the tool protocol applied: streams thinking and visible text to a sink, separates
// `<think>` blocks, hides `<tool>` markup in xml mode and turns it into tool calls, and recovers calls the
// model printed as JSON. Tool calls are only returned, never run here.
import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolDefinition } from '../messages';
import { toChatRequest, type ChatProvider, type ReadingProgress } from '../provider';
import { readDeltas } from '../streamDeltas';
import type { RoundReply } from '../agent/round';
import { recoverJsonToolCalls, type CallValidator } from './jsonRecovery';
import type { ToolProtocol } from './protocolSetting';
import { TagStreamSplitter, type TagSegment } from './tagStream';
import { parseToolBlock, type ToolBlockError } from './toolBlock';
import type { ToolIndex } from './toolIndex';

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
  /** Whether a call recovered from JSON text is runnable. */
  validate: CallValidator;
  newId?: () => string;
}

export interface ProtocolReply extends RoundReply {
  /** Problems with `<tool>` blocks, for corrective feedback. */
  protocolErrors: ToolBlockError[];
  /** Names of calls recovered from JSON in the text. */
  recovered: string[];
}

export const TOOL_TAGS = ['tool', 'tool_call'] as const;

export async function streamProtocolReply(request: ModelCallRequest, parsing: ReplyParsing, sink: ReplySink): Promise<ProtocolReply> {
  const newId = parsing.newId ?? (() => `call_${randomUUID().slice(0, 8)}`);
  const reply: ProtocolReply = { text: '', thinking: '', toolCalls: [], finishReason: '', protocolErrors: [], recovered: [] };
  const nativeTools: ToolDefinition[] = parsing.mode === 'native' ? parsing.index.tools.map((t) => t.definition) : [];
  // `known`: what a call may name. Even a request without tools (a final summary request) may get a call back
  // from a model that recovered; the caller passes the registry then, and the call runs through the gate.
  const known = parsing.known ?? parsing.index;
  const think = new TagStreamSplitter({ tags: ['think'], streamBlocks: true });
  // Native mode too: a model that writes `<tool>` / `<tool_call>` markup into its text (Hermes/Qwen style) means a
  // call; the markup is never shown as an answer.
  const tools = new TagStreamSplitter({ tags: TOOL_TAGS, jsonAware: true });
  let blocks = 0;

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
  const onBlock = (content: string) => {
    blocks++;
    if (known.size === 0) return; // nothing could be called: drop stray markup
    const parsed = parseToolBlock(content, known, newId);
    reply.toolCalls.push(...parsed.calls);
    reply.protocolErrors.push(...parsed.errors);
  };
  const toolStage = (segments: TagSegment[]) => {
    for (const s of segments) {
      if (s.kind === 'text') onVisible(s.text);
      else if (s.kind === 'block') onBlock(s.content);
    }
  };
  const textStage = (segments: TagSegment[]) => {
    for (const s of segments) {
      if (s.kind === 'block_part') onThinking(s.text);
      else if (s.kind === 'text') toolStage(tools.push(s.text));
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
  const end = tools.end();
  toolStage(end.segments);
  if (end.unterminated) {
    blocks++;
    if (known.size > 0) finishUnterminated(end.unterminated.content, known, newId, reply);
  }
  if (parsing.mode === 'xml' || blocks > 0) reply.text = reply.text.replace(/\n{3,}/g, '\n\n').trim();

  if (reply.toolCalls.length === 0 && reply.protocolErrors.length === 0 && known.size > 0) {
    const recovered = recoverJsonToolCalls(reply.text, parsing.validate, newId);
    if (recovered.calls.length > 0) {
      reply.toolCalls = recovered.calls;
      reply.text = recovered.text;
      reply.recovered = recovered.calls.map((c) => c.name);
    }
  }
  return reply;
}

/** The model stopped inside a `<tool>` block: use the call if the JSON is whole, else say what is missing. */
function finishUnterminated(content: string, index: ToolIndex, newId: () => string, reply: ProtocolReply): void {
  const parsed = parseToolBlock(content, index, newId);
  if (parsed.calls.length > 0 && parsed.errors.length === 0) {
    reply.toolCalls.push(...parsed.calls);
    return;
  }
  reply.protocolErrors.push({
    kind: 'parse_error',
    message: `The <tool> block was not closed with </tool>, and what came before is not a complete call: ${parsed.errors[0]?.message ?? 'incomplete JSON'}`,
  });
}

