// Approval of an MCP server's sampling request (the server wants the run's model to answer a prompt). Asked on
// the terminal; `--allow-sampling` approves without asking; with neither, every request is refused and stderr
// says how to allow it. Never approved silently.
import type { SamplingApprovalPort, SamplingRequest } from '../mcp/clientFeatures';
import { oneAtATime, printable, terminalLines } from './terminalLines';

export interface SamplingApprovalOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WritableStream;
  /** `--allow-sampling`: approve every request (each is still reported through `notice`). */
  allowAll: boolean;
  /** The model that will answer, to show in the question. */
  model: string;
  notice: (message: string) => void;
  /** Ends a pending question (the run was interrupted). */
  signal: AbortSignal;
}

export function ttySamplingApproval(o: SamplingApprovalOptions): SamplingApprovalPort {
  return async (request) => {
    if (o.allowAll) {
      o.notice(`MCP server "${request.server}" has ${o.model} answer a prompt (up to ${request.maxTokens} tokens): allowed by --allow-sampling`);
      return true;
    }
    if (!o.input.isTTY) {
      o.notice(`refused MCP server "${request.server}"'s request to have the model answer a prompt (sampling): there is no terminal to ask on; pass --allow-sampling to allow it`);
      return false;
    }
    return oneAtATime(async () => {
      if (o.signal.aborted) return false;
      const lines = terminalLines(o.input, o.output, o.signal);
      try {
        lines.write(`\n${describeSamplingRequest(request, o.model)}\n`);
        const answer = await lines.ask('Allow? [y]es / [N]o: ');
        return answer !== undefined && /^(y|yes)$/i.test(answer.trim());
      } finally {
        lines.close();
      }
    });
  };
}

const MAX_MESSAGE_CHARS = 400;
const MAX_MESSAGES = 6;

/** Who asks, what the model would be sent (each message cut to a few lines), and the token limit. */
export function describeSamplingRequest(request: SamplingRequest, model: string): string {
  const lines = [`MCP server "${printable(request.server)}" asks to have ${model} answer this prompt (sampling), up to ${request.maxTokens} tokens:`];
  if (request.systemPrompt) lines.push(`  system: ${clip(request.systemPrompt)}`);
  const shown = request.messages.slice(-MAX_MESSAGES);
  if (shown.length < request.messages.length) lines.push(`  … ${request.messages.length - shown.length} earlier messages`);
  for (const m of shown) lines.push(`  ${m.role}: ${clip(m.text)}`);
  if (request.modelHints.length) lines.push(`  (the server would prefer: ${request.modelHints.map(printable).join(', ')}; ${model} answers)`);
  return lines.join('\n');
}

function clip(text: string): string {
  const chars = Array.from(text);
  const cut = chars.length > MAX_MESSAGE_CHARS ? `${chars.slice(0, MAX_MESSAGE_CHARS).join('')}… (${chars.length - MAX_MESSAGE_CHARS} more characters)` : text;
  return printable(cut).replace(/\n/g, '\n    ');
}
