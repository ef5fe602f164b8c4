// The request layout: where each part of a request to the model goes. Every builder of a request lays out its
// messages here, so a new part has one place to go and one rule to follow.
//
// The rule keeps the server's prompt cache. Local servers (llama.cpp, Ollama, LM Studio, vLLM) keep the tokens of
// the previous request and read again only what follows its first changed byte; on a slow machine a request that
// differs early costs seconds or minutes. So a request is, in this order:
//   1. the system prompt: the same bytes for the whole session (nothing that changes within it: no working context,
//      no retrieved code, no mode note);
//   2. the tools: the same definitions in the same order; a tool added later goes at the end of the list. In xml
//      mode the request carries none: the system prompt lists them and later ones are described at the tail;
//   3. the history: every message exactly as it was sent; a round only appends;
//   4. the tail: what the harness tells the model now (the working context: files read and changed, todos, the
//      user's editor, retrieved code; the mode's note; tools added in xml mode) rides on the newest message, which
//      no request has carried yet, as its `context`, after its own text; from then on it is history like the rest.
// The one allowed break is a compression (a window that would overflow otherwise): compressed copies stand in for
// old messages and the running summary opens the first message after the system prompt, never the system prompt.
// Side requests: one that follows a chat request (the compression pass, the retry after the thinking budget cut a
// reply) continues it: that request byte for byte with the same tools, then its own messages, so the server reads
// only what it adds. One that stands alone (planner, synthesis, index summaries, setup probes) is a fixed system
// prompt and one user message with all that varies (the planner's system prompt still carries its tool list and
// the working context: it is sent once a turn, and its bytes were kept as they were). Within a message, attached
// code comes before the user's words and the context after them (modelText in ../messages.ts); images stay on the
// message they came with.
//
// Callers: the chat round (agent/turnRunner.ts, agent/thinkingBudget.ts; the tail from session/agentSession.ts), the
// history view and the compression pass (compression/view.ts, compression/modelPass.ts, contextWindow/), the planner,
// executor and synthesis (orchestrator/), index summaries (indexing/fileSummaryPrompt.ts), the setup probes.
import type { ChatMessage, ToolDefinition } from '../messages';
import type { ToolProtocol } from '../toolProtocol/protocolSetting';

/** A request's messages and the tool definitions it carries with them. */
export interface LaidOutRequest {
  messages: ChatMessage[];
  tools: readonly ToolDefinition[];
}

/** Part 1 alone: the request's fixed head. */
export function systemMessage(content: string): ChatMessage {
  return { role: 'system', content };
}

/** Parts 1 and 3: the system prompt, then the history as it was sent (the tail is already on its newest message). */
export function chatRequest(system: string | ChatMessage, history: readonly ChatMessage[]): ChatMessage[] {
  return [typeof system === 'string' ? systemMessage(system) : system, ...history];
}

/** A request laid out by chatRequest, taken apart again: its system prompt (when it has one) and its history. */
export function splitRequest(messages: readonly ChatMessage[]): { system: ChatMessage | undefined; history: ChatMessage[] } {
  return messages[0]?.role === 'system' ? { system: messages[0], history: messages.slice(1) } : { system: undefined, history: [...messages] };
}

/** Part 2: the definitions a request carries. In xml mode none: the system prompt lists the tools. */
export function requestTools(protocol: ToolProtocol, tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  return protocol === 'xml' ? [] : tools;
}

/** Part 4: blocks told at once (the mode's note, then the working context) as one, or undefined when all are empty. */
export function tailBlock(blocks: ReadonlyArray<string | undefined>): string | undefined {
  return blocks.filter((b) => b !== undefined && b !== '').join('\n\n') || undefined;
}

/**
 * Part 4: adds `block` to the newest message's context (after what it already carries) and returns that message;
 * undefined when there is none to carry it (no history yet, or only a system prompt). Call it only before a request
 * carries the message: once sent, a message is history and never changes.
 */
export function attachToTail(history: readonly ChatMessage[], block: string): ChatMessage | undefined {
  const newest = history[history.length - 1];
  if (!newest || newest.role === 'system') return undefined;
  newest.context = newest.context ? `${newest.context}\n\n${block}` : block;
  return newest;
}

/**
 * The break a compression makes: the system prompt unchanged, then the messages still in view, the first of them
 * as `open` makes it (opened by the running summary, see openedBy).
 */
export function compressedRequest(system: ChatMessage | undefined, inView: readonly ChatMessage[], open: (first: ChatMessage) => ChatMessage): ChatMessage[] {
  const out: ChatMessage[] = system ? [system] : [];
  inView.forEach((m, i) => out.push(i === 0 ? open(m) : m));
  return out;
}

/** The first message in view with `text` (the running summary) before its own. A new message: history is never changed. */
export function openedBy(first: ChatMessage, text: string): ChatMessage {
  return { ...first, content: first.content ? `${text}\n\n${first.content}` : text };
}

/** A side request that continues `prior` (the request the server holds): its messages byte for byte, its tools, then `asks`. */
export function followUpRequest(prior: LaidOutRequest, asks: readonly ChatMessage[]): LaidOutRequest {
  return { messages: [...prior.messages, ...asks], tools: prior.tools };
}

/** A side request of its own: a fixed system prompt, then one user message with everything that varies. */
export function standaloneRequest(system: string, user?: string): ChatMessage[] {
  return user === undefined ? [systemMessage(system)] : [systemMessage(system), { role: 'user', content: user }];
}
