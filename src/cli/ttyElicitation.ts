// An MCP server asking the user for input (elicitation), answered on the terminal field by field. Without a
// terminal nobody can answer, so the request is declined at once and stderr says why.
import type { ElicitationAnswer, ElicitationPort, ElicitationRequest } from '../mcp/clientFeatures';
import { describeField, parseFieldInput, type FieldValue } from './elicitFieldInput';
import { oneAtATime, printable, terminalLines, type TerminalLines } from './terminalLines';

/** The form's conversation: first whether to answer at all, then each field until it is valid. */
export async function askElicitation(request: ElicitationRequest, lines: Pick<TerminalLines, 'ask' | 'write'>): Promise<ElicitationAnswer> {
  lines.write(`\nMCP server "${printable(request.server)}" asks for input:\n${indent(printable(request.message))}\n`);
  if (request.fields.length > 0) lines.write(`Fields: ${request.fields.map((f) => f.name).join(', ')}\n`);
  for (;;) {
    const answer = await lines.ask('Answer? [y]es / [n]o (decline) / [c]ancel: ');
    if (answer === undefined) return cancelled(lines);
    const a = answer.trim().toLowerCase();
    if (a === 'n' || a === 'no') return { action: 'decline' };
    if (a === 'c' || a === 'cancel') return { action: 'cancel' };
    if (a === 'y' || a === 'yes') break;
  }
  const content: Record<string, FieldValue> = {};
  for (const [i, field] of request.fields.entries()) {
    lines.write(`\n[${i + 1}/${request.fields.length}] ${describeField(field).join('\n')}\n`);
    for (;;) {
      const line = await lines.ask(`${field.name}: `);
      if (line === undefined) return cancelled(lines);
      const input = parseFieldInput(field, line);
      if ('error' in input) {
        lines.write(`  ${input.error}; try again (Ctrl-C cancels)\n`);
        continue;
      }
      if ('value' in input) content[field.name] = input.value;
      break;
    }
  }
  return { action: 'accept', content };
}

/**
 * The CLI's elicitation port. On a terminal it asks (one form at a time); otherwise it declines and says so
 * through `notice`.
 */
export function ttyElicitation(input: NodeJS.ReadStream, output: NodeJS.WritableStream, notice: (message: string) => void): ElicitationPort {
  if (!input.isTTY) {
    return async (request) => {
      notice(`declined MCP server "${request.server}"'s request for input ("${oneLine(request.message)}"): there is no terminal to ask on`);
      return { action: 'decline' };
    };
  }
  return (request, signal) =>
    oneAtATime(async () => {
      if (signal.aborted) return { action: 'cancel' } as const;
      const lines = terminalLines(input, output, signal);
      try {
        return await askElicitation(request, lines);
      } finally {
        lines.close();
      }
    });
}

function cancelled(lines: Pick<TerminalLines, 'write'>): ElicitationAnswer {
  lines.write('\nCancelled: the server is told the form was dismissed.\n');
  return { action: 'cancel' };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

function oneLine(text: string, max = 120): string {
  const flat = printable(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
