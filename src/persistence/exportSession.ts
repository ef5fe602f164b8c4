// A session as a document the user can keep or share: Markdown to read, JSON to process.
import { argumentsToText, type ToolCall } from '../core/messages';
import type { SessionInfo, SessionSummary, StoredMessage } from './types';

export interface SessionDump {
  session: SessionInfo;
  /** Every row: originals, compressed copies (compressedFrom) and display-only messages. */
  messages: StoredMessage[];
  summary?: SessionSummary;
}

export const JSON_EXPORT_FORMAT = 'localharness-session';
export const JSON_EXPORT_VERSION = 1;

export function sessionToJson(dump: SessionDump): string {
  return `${JSON.stringify(
    { format: JSON_EXPORT_FORMAT, version: JSON_EXPORT_VERSION, session: dump.session, summary: dump.summary ?? null, messages: dump.messages },
    null,
    2,
  )}\n`;
}

/** The conversation as the user saw it: original messages in order (compressed copies are left out). */
export function sessionToMarkdown(dump: SessionDump): string {
  const { session } = dump;
  const out: string[] = [
    `# ${oneLine(session.title)}`,
    '',
    `- Model: ${oneLine(session.model) || '(none)'}${session.provider ? ` (${oneLine(session.provider)})` : ''}`,
    `- Created: ${new Date(session.createdAt).toISOString()}`,
    `- Updated: ${new Date(session.updatedAt).toISOString()}`,
    `- Status: ${session.status}`,
    `- Messages: ${session.messageCount}`,
    '',
  ];
  for (const message of dump.messages) {
    if (message.compressedFrom !== undefined) continue;
    out.push(...messageToMarkdown(message), '');
  }
  if (dump.summary) {
    out.push('## Summary', '', dump.summary.text, '');
    if (dump.summary.filesTouched.length > 0) {
      out.push('Files touched:', '', ...dump.summary.filesTouched.map((f) => `- \`${f.replace(/`/g, '')}\``), '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function messageToMarkdown(message: StoredMessage): string[] {
  const note = message.displayOnly ? ' (shown only, not sent to the model)' : '';
  const lines: string[] = [];
  switch (message.role) {
    case 'tool':
      lines.push(`## Tool result: ${oneLine(message.toolName ?? 'unknown')}${message.toolCallId ? ` (${oneLine(message.toolCallId)})` : ''}${note}`, '');
      lines.push(...fenced(message.content, ''));
      return lines;
    case 'assistant':
      lines.push(`## Assistant${note}`, '');
      break;
    case 'user':
      lines.push(`## User${note}`, '');
      break;
    case 'system':
      lines.push(`## System${note}`, '');
      break;
  }
  if (message.thinking) {
    lines.push('<details><summary>Thinking</summary>', '', ...fenced(message.thinking, 'text'), '', '</details>', '');
  }
  if (message.content) lines.push(message.content, '');
  for (const call of message.toolCalls ?? []) {
    lines.push(`**Tool call** \`${oneLine(call.name).replace(/`/g, '')}\` (${oneLine(call.id)})`, '', ...fenced(prettyArguments(call.arguments), 'json'), '');
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function prettyArguments(args: ToolCall['arguments']): string {
  if (typeof args !== 'string') return JSON.stringify(args, null, 2);
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return argumentsToText(args); // the model's invalid JSON, shown as it was
  }
}

/** A code fence longer than any backtick run inside, so content cannot close it early. */
function fenced(content: string, lang: string): string[] {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, content, fence];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
