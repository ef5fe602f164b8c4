// An MCP resource chip as attached blocks of the message the model gets: read through its server when the
// message is sent; text as is (clipped to the room left), binary content described by type and size, and a
// failed read as a note, so the message still goes out. No vscode import: tested under node.
import type { AttachedBlock } from '../../shared/attachedMessage';
import { resourceLabel, type ResourceAttachment } from '../../shared/protocol';
import type { McpResourcePart } from '../../mcp/types';

/** Reads a resource through the server that lists it (McpManager.readResource). */
export type ResourceReader = (server: string, uri: string, signal: AbortSignal) => Promise<McpResourcePart[]>;

export interface ResourceBlocks {
  blocks: AttachedBlock[];
  /** Characters of resource text included (counted against the message's room). */
  chars: number;
}

export async function resourceBlocks(
  chip: ResourceAttachment,
  read: ResourceReader | undefined,
  signal: AbortSignal,
  room: { maxChars: number; skip: boolean },
): Promise<ResourceBlocks> {
  const label = oneLine(resourceLabel(chip));
  const note = (text: string): ResourceBlocks => ({ blocks: [{ label, text: '', note: text }], chars: 0 });
  if (!read) return note('could not be read: MCP resources are not available here');
  if (room.skip) return note('not included: the message is already long');
  let parts: McpResourcePart[];
  try {
    parts = await read(chip.server, chip.uri, signal);
  } catch (err) {
    // Stop means stop; anything else is the server's problem, said in the message instead of losing it.
    if (signal.aborted) throw err;
    return note(`could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (parts.length === 0) return note('the server returned no content');
  const blocks: AttachedBlock[] = [];
  let left = room.maxChars;
  for (const part of parts) {
    // A resource may come in several parts with their own uris (a directory, say): each is named.
    const partLabel = part.uri && part.uri !== chip.uri ? oneLine(resourceLabel({ server: chip.server, uri: part.uri })) : label;
    const languageId = languageOf(part.mimeType);
    if ('blob' in part) {
      blocks.push({ label: partLabel, text: '', note: `binary content (${part.mimeType ?? 'unknown type'}, ${part.bytes.toLocaleString('en-US')} bytes), not included` });
      continue;
    }
    if (left <= 0) {
      blocks.push({ label: partLabel, text: '', note: 'not included: the message is already long' });
      continue;
    }
    const text = part.text.length > left ? part.text.slice(0, left) : part.text;
    left -= text.length;
    blocks.push({
      label: partLabel,
      text,
      ...(languageId && { languageId }),
      ...(text.length < part.text.length && { note: `clipped to ${text.length.toLocaleString('en-US')} of ${part.text.length.toLocaleString('en-US')} characters` }),
    });
  }
  return { blocks, chars: room.maxChars - left };
}

const LANGUAGES: Record<string, string> = {
  'text/markdown': 'markdown',
  'application/json': 'json',
  'text/html': 'html',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/csv': 'csv',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/typescript': 'typescript',
  'text/x-python': 'python',
};

/** The fence's language for a MIME type the model knows by name; plain text gets none. */
export function languageOf(mimeType: string | undefined): string | undefined {
  if (!mimeType) return undefined;
  return LANGUAGES[mimeType.split(';')[0]!.trim().toLowerCase()];
}

/** A header is one line: the attached-message format reads it back line by line. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
