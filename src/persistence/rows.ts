// Turning database rows into the store's public shapes.
import type { ChatMessage, MessageAttachment, ToolCall } from '../core/messages';
import type { Row } from './journaledDatabase';
import { decodeBefore } from './checkpointCodec';
import { IMAGE_MIMES, type ImageMime, type ImagePart } from '../core/images/imagePart';
import { MAX_THUMBNAIL } from '../shared/chatModel';
import { IMAGE_DATA_URL } from '../shared/imageUpload';
import type { Checkpoint, SessionInfo, SessionStatus, StoredMessage, ToolAuditEntry, ToolOutcome } from './types';

export function rowToSession(row: Row): SessionInfo {
  return {
    id: text(row.id),
    title: text(row.title),
    model: text(row.model),
    provider: text(row.provider),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    status: text(row.status) as SessionStatus,
    turnOpen: num(row.turn_open) === 1,
    messageCount: num(row.message_count),
  };
}

export function rowToMessage(row: Row): StoredMessage {
  const message: StoredMessage = {
    id: num(row.id),
    sessionId: text(row.session_id),
    seq: num(row.seq),
    role: text(row.role) as StoredMessage['role'],
    content: text(row.content),
    displayOnly: num(row.display_only) === 1,
    createdAt: num(row.created_at),
  };
  if (row.context !== null && row.context !== undefined) message.context = text(row.context);
  if (row.attachments !== null && row.attachments !== undefined) {
    const attachments = attachmentsOf(text(row.attachments));
    if (attachments.length) message.attachments = attachments;
  }
  if (row.images !== null && row.images !== undefined) {
    const images = imagesOf(text(row.images));
    if (images.length) message.images = images;
  }
  if (row.thinking !== null && row.thinking !== undefined) message.thinking = text(row.thinking);
  if (row.tool_calls !== null && row.tool_calls !== undefined) message.toolCalls = JSON.parse(text(row.tool_calls)) as ToolCall[];
  if (row.tool_call_id !== null && row.tool_call_id !== undefined) message.toolCallId = text(row.tool_call_id);
  if (row.tool_name !== null && row.tool_name !== undefined) message.toolName = text(row.tool_name);
  if (row.prompt_tokens !== null || row.completion_tokens !== null) {
    message.tokens = {};
    if (row.prompt_tokens !== null && row.prompt_tokens !== undefined) message.tokens.prompt = num(row.prompt_tokens);
    if (row.completion_tokens !== null && row.completion_tokens !== undefined) message.tokens.completion = num(row.completion_tokens);
  }
  if (row.compressed_from !== null && row.compressed_from !== undefined) message.compressedFrom = num(row.compressed_from);
  if (row.superseded_by !== null && row.superseded_by !== undefined) message.supersededBy = num(row.superseded_by);
  return message;
}

export function rowToAudit(row: Row): ToolAuditEntry {
  return {
    id: num(row.id),
    sessionId: text(row.session_id),
    toolCallId: text(row.tool_call_id),
    name: text(row.name),
    arguments: JSON.parse(text(row.arguments)) as unknown,
    approval: text(row.approval),
    durationMs: num(row.duration_ms),
    outcome: text(row.outcome) as ToolOutcome,
    createdAt: num(row.created_at),
  };
}

export function rowToCheckpoint(row: Row): Checkpoint {
  return {
    id: num(row.id),
    sessionId: text(row.session_id),
    path: text(row.path),
    before: decodeBefore(row),
    createdAt: num(row.created_at),
  };
}

function text(value: Row[string]): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function num(value: Row[string]): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

/** Just the ChatMessage fields, for handing stored history to a provider. */
export function toChatMessage(message: StoredMessage): ChatMessage {
  const out: ChatMessage = { role: message.role, content: message.content };
  if (message.thinking !== undefined) out.thinking = message.thinking;
  if (message.toolCalls !== undefined) out.toolCalls = message.toolCalls;
  if (message.toolCallId !== undefined) out.toolCallId = message.toolCallId;
  if (message.toolName !== undefined) out.toolName = message.toolName;
  return out;
}

/** Stored attachments, each checked: a damaged entry is dropped rather than failing the whole session. */
function attachmentsOf(json: string): MessageAttachment[] {
  return storedObjects(json).flatMap((r) => {
    if (typeof r.label !== 'string' || typeof r.text !== 'string') return [];
    return [{ label: r.label, text: r.text, ...(typeof r.languageId === 'string' && { languageId: r.languageId }), ...(typeof r.note === 'string' && { note: r.note }) }];
  });
}

/** Stored images, each checked like attachments: a damaged entry is dropped, the message kept. */
function imagesOf(json: string): ImagePart[] {
  return storedObjects(json).flatMap((r) => {
    if (typeof r.data !== 'string' || typeof r.name !== 'string' || !IMAGE_MIMES.includes(r.mimeType as ImageMime)) return [];
    const size = typeof r.width === 'number' && typeof r.height === 'number' ? { width: r.width, height: r.height } : {};
    const thumbnail = typeof r.thumbnail === 'string' && r.thumbnail.length <= MAX_THUMBNAIL && IMAGE_DATA_URL.test(r.thumbnail) ? { thumbnail: r.thumbnail } : {};
    return [{ mimeType: r.mimeType as ImageMime, data: r.data, name: r.name, ...size, ...thumbnail }];
  });
}

/** The objects of a stored JSON array column; damaged JSON or entries that are not objects are left out. */
function storedObjects(json: string): Array<Record<string, unknown>> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.filter((a: unknown): a is Record<string, unknown> => !!a && typeof a === 'object');
}
