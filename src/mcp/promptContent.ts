// Renders a prompts/get result as text messages: what a chat turn (or the CLI) can insert as the user's words.
import { base64Bytes } from './content';
import type { McpPromptResult } from './types';

type Json = Record<string, unknown>;

export function renderPromptResult(raw: { description?: unknown; messages?: unknown }): McpPromptResult {
  const messages = Array.isArray(raw.messages) ? raw.messages : [];
  return {
    ...(typeof raw.description === 'string' && raw.description !== '' && { description: raw.description }),
    messages: messages.filter(isObject).map((m) => ({
      role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const),
      text: (Array.isArray(m.content) ? m.content : [m.content]).map(contentPartToText).filter((t) => t !== '').join('\n'),
    })),
  };
}

/** Text as is; embedded text resources inlined under their uri; binary described by type and size. */
export function contentPartToText(part: unknown): string {
  if (!isObject(part)) return part === undefined || part === null ? '' : String(part);
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[${mimeOr(part.mimeType, part.type)}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      const r = isObject(part.resource) ? part.resource : {};
      const uri = typeof r.uri === 'string' ? r.uri : 'unknown uri';
      if (typeof r.text === 'string') return `[resource ${uri}]\n${r.text}`;
      return `[resource ${uri}: ${mimeOr(r.mimeType, 'binary')}, ${base64Bytes(r.blob)} bytes]`;
    }
    case 'resource_link': {
      const name = typeof part.name === 'string' && part.name !== part.uri ? ` (${part.name})` : '';
      return `[resource link: ${String(part.uri)}${name}]`;
    }
    default:
      return `[${typeof part.type === 'string' ? part.type : 'unknown'} content]`;
  }
}

function mimeOr(mime: unknown, fallback: string): string {
  return typeof mime === 'string' && mime !== '' ? mime : fallback;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
