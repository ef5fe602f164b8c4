// Approval of a server's sampling request: what the dialog says (who asks, the prompt, the token limit, the
// model that will answer) and the "Allow for this server" memory, which lasts until the window closes.
// Pure (no 'vscode' import): the dialog is injected.
import type { SamplingApprovalPort, SamplingRequest } from '../../mcp/clientFeatures';

export type SamplingAnswer = 'allow' | 'allowServer' | 'deny';

export interface SamplingDialogText {
  message: string;
  detail: string;
}

/** How much of the prompt the dialog quotes. */
export const PROMPT_PREVIEW_CHARS = 300;

export function samplingDialogText(request: SamplingRequest, model: string | undefined): SamplingDialogText {
  const message = `MCP server "${request.server}" wants your model to answer a prompt. Allow?`;
  const prompt = request.messages.map((m) => `${m.role}: ${m.text}`).join('\n');
  const lines = [
    `Model: ${model ? `${model} (the chat's model)` : "the chat's model"}`,
    `Token limit: ${request.maxTokens}`,
    ...(request.systemPrompt?.trim() ? [`System prompt: ${preview(request.systemPrompt.trim(), 120)}`] : []),
    ...(request.modelHints.length ? [`The server suggested: ${request.modelHints.join(', ')} (your chat's model answers instead)`] : []),
    '',
    'Prompt:',
    preview(prompt, PROMPT_PREVIEW_CHARS),
  ];
  return { message, detail: lines.join('\n') };
}

/** One line for the server's log. */
export function samplingLogLine(request: SamplingRequest, outcome: string): string {
  const chars = request.messages.reduce((sum, m) => sum + m.text.length, 0);
  return `sampling request (${request.messages.length} message${request.messages.length === 1 ? '' : 's'}, ${chars} characters, max ${request.maxTokens} tokens${request.systemPrompt ? ', with a system prompt' : ''}): ${outcome}`;
}

export interface SamplingApprovalDeps {
  ask: (text: SamplingDialogText) => Promise<SamplingAnswer | undefined>;
  /** The model that will answer, for the dialog (undefined: not known yet). */
  modelName: () => string | undefined;
  log: (server: string, line: string) => void;
}

/** The approval port: asks every time unless the user chose "Allow for this server" in this window. */
export class SamplingApprovals {
  private readonly allowedServers = new Set<string>();

  constructor(private readonly deps: SamplingApprovalDeps) {}

  readonly port: SamplingApprovalPort = async (request) => {
    if (this.allowedServers.has(request.server)) {
      this.deps.log(request.server, samplingLogLine(request, 'allowed (you allowed this server for this window)'));
      return true;
    }
    let answer: SamplingAnswer | undefined;
    try {
      answer = await this.deps.ask(samplingDialogText(request, this.deps.modelName()));
    } catch (err) {
      this.deps.log(request.server, samplingLogLine(request, `refused: the dialog failed (${err instanceof Error ? err.message : String(err)})`));
      return false;
    }
    if (answer === 'allowServer') this.allowedServers.add(request.server);
    const allowed = answer === 'allow' || answer === 'allowServer';
    this.deps.log(request.server, samplingLogLine(request, allowed ? (answer === 'allowServer' ? 'allowed for this server until the window closes' : 'allowed once') : answer === 'deny' ? 'denied' : 'refused (dialog closed)'));
    return allowed;
  };

  /** Forget "Allow for this server" (the server was removed or its consent revoked). */
  forget(server: string): void {
    this.allowedServers.delete(server);
  }
}

function preview(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`;
}
