// The chat view's reducer: a pure function from (state, UI event) to the next state.
// The host keeps the authoritative state with it; the webview applies the same events to its copy.
// Updates are immutable and touch only the changed item, so the view can diff by identity.
import type { Attachment, ChatEvent, ChatItem, ChatViewState, ToolItem } from './chatModel';
import { isMentionAttachment, isResourceAttachment, MAX_ATTACHMENTS, MAX_TOOL_TEXT } from './chatModel';
import { markCompressed } from './compressedMarks';

export function initialChatState(available: number | null = null): ChatViewState {
  return { items: [], busy: false, status: null, context: { used: 0, available }, nextId: 1 };
}

export function reduceChat(state: ChatViewState, event: ChatEvent): ChatViewState {
  switch (event.type) {
    case 'turn_start': {
      // The turn's cache tally starts over; the last request's counts stay until the next one.
      const { cache, ...context } = state.context;
      const kept = cache ? { ...context, cache: { last: cache.last, turn: { prompt: 0, cached: 0, estimated: false } } } : context;
      return push({ ...state, busy: true, status: null, context: kept }, (id) => ({ kind: 'user', id, text: event.text, ...(event.mode && { mode: event.mode }), ...(event.images?.length && { images: event.images }) }));
    }
    case 'round_start':
      return closeStreaming(state);
    case 'status':
      return { ...state, status: event.text };
    case 'thinking':
    case 'text':
      return appendDelta(state, event.type, event.text);
    case 'tool_call':
      return push(state, (id) => ({
        kind: 'tool',
        id,
        callId: event.callId,
        name: event.name,
        args: capText(event.args),
        status: 'running',
      }));
    case 'approval_request':
      return updateTool(state, event.callId, (t) => ({
        ...t,
        approval: { state: 'pending', title: event.title, detail: capText(event.detail), risk: event.risk },
      }));
    case 'approval_result':
      return updateTool(state, event.callId, (t) => {
        const approval = {
          ...(t.approval ?? { title: '', detail: '', risk: '' }),
          state: event.approved ? ('approved' as const) : ('denied' as const),
          ...(event.scope !== undefined && { scope: event.scope }),
          ...(event.reason !== undefined && { reason: event.reason }),
        };
        return { ...t, approval, ...(!event.approved && { status: 'denied' as const }) };
      });
    case 'tool_progress':
      return updateTool(state, event.callId, (t) => ({ ...t, progress: event.text }));
    case 'tool_result':
      return updateTool(state, event.callId, (t) => {
        const { progress: _progress, ...rest } = t;
        return {
          ...rest,
          status: event.denied ? 'denied' : event.ok ? 'done' : 'error',
          result: capText(event.content),
          durationMs: event.durationMs,
        };
      });
    case 'notice':
      return push(state, (id) => ({ kind: 'notice', id, text: event.text }));
    case 'error':
      return push(state, (id) => ({ kind: 'error', id, text: event.text, actions: [...event.actions] }));
    case 'usage': {
      if (!event.cache) return { ...state, context: { ...state.context, used: event.used } };
      const turn = state.context.cache?.turn ?? { prompt: 0, cached: 0, estimated: false };
      const total = { prompt: turn.prompt + event.cache.prompt, cached: turn.cached + event.cache.cached, estimated: turn.estimated || event.cache.estimated };
      return { ...state, context: { ...state.context, used: event.used, cache: { last: event.cache, turn: total } } };
    }
    case 'context_limit':
      return { ...state, context: { ...state.context, available: event.available } };
    case 'turn_end':
      return endTurn(state, event.reason, event.result);
    case 'reset':
      // Chips belong to the message being written, like the draft: a new chat keeps them.
      return withAttachments({ ...initialChatState(state.context.available), nextId: state.nextId }, state.attachments ?? []);
    case 'compressed': {
      const items = markCompressed(state.items, event);
      return items === state.items ? state : { ...state, items };
    }
    case 'attachment_add':
      return addAttachment(state, event.attachment);
    case 'message_stored':
      return withMessageId(state, event.messageId);
    case 'review': {
      if (event.review) return { ...state, review: event.review };
      const { review: _gone, ...rest } = state;
      return rest;
    }
    case 'attachment_remove': {
      const kept = (state.attachments ?? []).filter((a) => a.id !== event.id);
      return kept.length === (state.attachments ?? []).length ? state : withAttachments(state, kept);
    }
  }
}

/** The newest user item gets the stored id (it is the message the turn just saved). */
function withMessageId(state: ChatViewState, messageId: number): ChatViewState {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i]!;
    if (item.kind !== 'user') continue;
    if (item.messageId === messageId) return state;
    const items = state.items.slice();
    items[i] = { ...item, messageId };
    return { ...state, items };
  }
  return state;
}

/** Same file and lines as a pending chip: nothing new. Beyond the limit the oldest chip gives way. */
function addAttachment(state: ChatViewState, attachment: Attachment): ChatViewState {
  const current = state.attachments ?? [];
  const same = (a: Attachment) => sameSource(a, attachment);
  if (current.some((a) => a.id === attachment.id || same(a))) return state;
  return withAttachments(state, [...current, attachment].slice(-MAX_ATTACHMENTS));
}

/** The same file and lines, or the same server and resource. */
function sameSource(a: Attachment, b: Attachment): boolean {
  if (isMentionAttachment(a) || isMentionAttachment(b)) return isMentionAttachment(a) && isMentionAttachment(b) && a.mention === b.mention && a.label === b.label;
  if (isResourceAttachment(a) || isResourceAttachment(b)) return isResourceAttachment(a) && isResourceAttachment(b) && a.server === b.server && a.uri === b.uri;
  return a.file === b.file && a.startLine === b.startLine && a.endLine === b.endLine;
}

function withAttachments(state: ChatViewState, attachments: Attachment[]): ChatViewState {
  if (attachments.length > 0) return { ...state, attachments };
  const { attachments: _gone, ...rest } = state;
  return rest;
}

/**
 * reduceChat for the one holder of `state.items` (the host's store): a text or thinking delta to the streaming
 * message replaces the last item in place instead of copying every item, so a delta costs the same at 10,000
 * items as at 10. Whoever else was handed the earlier state sees the new last item. Everything else: reduceChat.
 */
export function reduceChatInPlace(state: ChatViewState, event: ChatEvent): ChatViewState {
  if (event.type === 'text' || event.type === 'thinking') {
    const items = state.items as ChatItem[];
    const last = items[items.length - 1];
    if (last && last.kind === 'assistant' && last.streaming) {
      items[items.length - 1] = { ...last, [event.type]: last[event.type] + event.text };
      return { ...state, status: null };
    }
  }
  return reduceChat(state, event);
}

export function reduceAll(state: ChatViewState, events: Iterable<ChatEvent>): ChatViewState {
  let s = state;
  for (const e of events) s = reduceChat(s, e);
  return s;
}

/**
 * Merges adjacent text (and adjacent thinking) deltas. The reducer treats two deltas exactly like their
 * concatenation, so a batch shrinks without changing the resulting state.
 */
export function coalesceEvents(events: readonly ChatEvent[]): ChatEvent[] {
  const out: ChatEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last && (e.type === 'text' || e.type === 'thinking') && last.type === e.type) {
      out[out.length - 1] = { type: e.type, text: last.text + e.text };
    } else {
      out.push(e);
    }
  }
  return out;
}

export function capText(text: string, max = MAX_TOOL_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`;
}

function push(state: ChatViewState, make: (id: string) => ChatItem): ChatViewState {
  const closed = closeStreaming(state);
  const item = make(`i${closed.nextId}`);
  return { ...closed, items: [...closed.items, item], nextId: closed.nextId + 1 };
}

/** Only the last item can be a streaming assistant message; anything else arriving ends it. */
function closeStreaming(state: ChatViewState): ChatViewState {
  const last = state.items[state.items.length - 1];
  if (!last || last.kind !== 'assistant' || !last.streaming) return state;
  return replaceAt(state, state.items.length - 1, { ...last, streaming: false });
}

function appendDelta(state: ChatViewState, field: 'text' | 'thinking', delta: string): ChatViewState {
  const last = state.items[state.items.length - 1];
  if (last && last.kind === 'assistant' && last.streaming) {
    return { ...replaceAt(state, state.items.length - 1, { ...last, [field]: last[field] + delta }), status: null };
  }
  const id = `i${state.nextId}`;
  const item: ChatItem = { kind: 'assistant', id, text: '', thinking: '', streaming: true, [field]: delta };
  return { ...state, items: [...state.items, item], nextId: state.nextId + 1, status: null };
}

function updateTool(state: ChatViewState, callId: string, update: (t: ToolItem) => ToolItem): ChatViewState {
  // Servers reuse ids like "call_0" across rounds: the latest card with that id is the one meant.
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i]!;
    if (item.kind === 'tool' && item.callId === callId) return replaceAt(state, i, update(item));
  }
  return state;
}

function endTurn(state: ChatViewState, reason: string, result: string | undefined): ChatViewState {
  let s = closeStreaming(state);
  // Cards still running (cancelled mid-tool, or the host crashed out) must not spin forever.
  const items = s.items.map((item): ChatItem => {
    if (item.kind !== 'tool') return item;
    const pending = item.approval?.state === 'pending';
    if (item.status !== 'running' && !pending) return item;
    return {
      ...item,
      status: pending ? 'denied' : item.status === 'running' ? 'error' : item.status,
      ...(pending && { approval: { ...item.approval!, state: 'denied' as const, reason: 'the turn ended' } }),
      ...(item.status === 'running' && item.result === undefined && { result: 'Interrupted: the turn ended before this tool finished.' }),
    };
  });
  if (items.some((item, i) => item !== s.items[i])) s = { ...s, items };
  s = { ...s, busy: false, status: null };
  if ((reason === 'completed' || reason === 'task_completion' || reason === 'ask_question') && result && result.trim()) {
    // The turn's result is the answer. A completed turn streamed it already, unless the final reply was empty
    // (the host then supplies a stand-in); a loop-breaking tool's text (summary, question) was never streamed.
    const spoken = lastSpoken(s.items);
    const said =
      spoken?.kind === 'assistant' && spoken.text.trim() !== '' && (reason === 'completed' || spoken.text.trim() === result.trim());
    if (!said) s = push(s, (id) => ({ kind: 'assistant', id, text: result, thinking: '', streaming: false }));
  } else if (reason === 'cancelled') {
    s = push(s, (id) => ({ kind: 'notice', id, text: 'Stopped. Send a new message to continue.' }));
  }
  return s;
}

/** The last item that is part of the exchange (notices are asides). */
function lastSpoken(items: readonly ChatItem[]): ChatItem | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind !== 'notice') return items[i];
  return undefined;
}

function replaceAt(state: ChatViewState, index: number, item: ChatItem): ChatViewState {
  const items = state.items.slice();
  items[index] = item;
  return { ...state, items };
}
