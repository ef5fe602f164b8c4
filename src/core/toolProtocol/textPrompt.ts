// The system prompt part for the text (xml) protocol: how to call tools in text, and the tools themselves.
import { example } from './toolBlock';
import type { ToolIndex } from './toolIndex';
import { clip, paramList, paramNotes } from './schemaSignature';

/** First line of the part; lets a caller see that the part is already in a system prompt. */
export const TEXT_PROTOCOL_HEADER = '# Calling tools';

export function renderTextProtocolPart(index: ToolIndex): string {
  if (index.size === 0) return '';
  const lines = [
    TEXT_PROTOCOL_HEADER,
    'To call a tool, write a tool block in your reply:',
    example(index),
    'Rules:',
    '- Exactly one JSON object per block: double quotes, \\n for newlines inside strings.',
    '- Several blocks run in order. Then stop: the results come back in the next message. Never invent results.',
    '- Reply without tool blocks only when the task is done.',
    'Tools:',
    renderToolList(index),
  ];
  return lines.join('\n');
}

/** One line per tool (with parameter notes), grouped under their server when several servers are listed. */
export function renderToolList(index: ToolIndex): string {
  const lines: string[] = [];
  let server = '';
  for (const t of index.tools) {
    if (index.tools.some((o) => o.server !== 'local') && t.server !== server) {
      server = t.server;
      lines.push(`server_name "${server}":`);
    }
    const params = t.definition.parameters as Parameters<typeof paramList>[0];
    lines.push(`- ${t.tool}(${paramList(params)}): ${clip(t.definition.description, 160)}`);
    const notes = paramNotes(params);
    if (notes) lines.push(`  ${notes}`);
  }
  return lines.join('\n');
}
