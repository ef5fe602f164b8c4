// Turns a tools/call result into text the model can read. Binary content is described, not inlined.

export interface ToolCallOutput {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

export function contentToText(result: ToolCallOutput): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map(blockToText).filter((p) => p !== '');
  if (parts.length === 0 && result.structuredContent !== undefined) return safeJson(result.structuredContent);
  if (parts.length === 0) return result.isError ? '(the tool reported an error without a message)' : '(the tool returned no content)';
  return parts.join('\n');
}

function blockToText(block: unknown): string {
  if (block === null || typeof block !== 'object') return String(block);
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '';
    case 'image':
    case 'audio':
      return `[${b.type}: ${str(b.mimeType) || 'unknown type'}, ${base64Bytes(b.data)} bytes]`;
    case 'resource_link': {
      const name = str(b.name) && str(b.name) !== str(b.uri) ? ` (${str(b.name)})` : '';
      const mime = str(b.mimeType) ? `, ${str(b.mimeType)}` : '';
      const description = str(b.description) ? `: ${str(b.description)}` : '';
      return `[resource link: ${str(b.uri)}${name}${mime}]${description}`;
    }
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return `[resource: ${str(r.uri)}]\n${r.text}`;
      const mime = str(r.mimeType) ? `, ${str(r.mimeType)}` : '';
      return `[resource: ${str(r.uri)}${mime}, ${base64Bytes(r.blob)} bytes]`;
    }
    default:
      return `[${str(b.type) || 'unknown'} content] ${safeJson(block).slice(0, 500)}`;
  }
}

/** Decoded size of base64 text without decoding it. */
export function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
