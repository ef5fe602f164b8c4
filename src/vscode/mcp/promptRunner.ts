// Runs an MCP prompt in the chat: typed as `/server.prompt` (optionally followed by text), or chosen in the MCP
// Servers view or the palette. Each argument is asked in a native input box (Escape cancels with nothing
// sent), prompts/get is called, and its messages become the user's turn. Problems are said in the chat; a typed
// command comes back to the message box, so nothing the user wrote is lost.
import * as vscode from 'vscode';
import { parseSlashCommand } from '../../shared/slashCommand';
import type { McpPromptArgumentInfo, McpPromptInfo } from '../../mcp/types';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import { errorMessage, type Logger } from '../../editor/log/logger';
import type { McpChatSource } from './mcpChatSource';
import { notOfferedMessage, promptArguments, promptCommand, promptTurnText, resolvePromptCommand } from '../../editor/mcp/promptTurn';

/** prompts/get is a quick lookup on the server; a server that hangs must not hold the message forever. */
const PROMPT_TIMEOUT_MS = 60_000;

export const PROMPT_BUSY_NOTE = 'Local Harness is still answering. The prompt is in the message box: send it when the turn ends.';

export interface PromptRunnerDeps {
  source: McpChatSource;
  controller: { readonly busy: boolean; send(text: string): Promise<void> };
  chatView: { focusInput(): void; prefill(text: string): void };
  store: ChatStateStore;
  log: Logger;
  /** Opens and focuses the chat. */
  openChat: () => Promise<void>;
}

export class McpPromptRunner {
  constructor(private readonly deps: PromptRunnerDeps) {}

  /**
   * The chat's hook for a sent message: true when it was a prompt command (run, cancelled, or refused with the
   * reason in the chat); false for anything else, which the caller sends as it is.
   */
  async handleSend(text: string): Promise<boolean> {
    const parsed = parseSlashCommand(text);
    if (!parsed) return false;
    const { source } = this.deps;
    const servers = source.servers();
    const resolved = resolvePromptCommand(parsed.command, source.prompts(), servers.map((s) => s.name));
    if (!resolved) return false;
    if (resolved.kind === 'notOffered') {
      const state = servers.find((s) => s.name === resolved.server)?.state;
      const available = source.prompts().filter((p) => p.server === resolved.server).map((p) => p.name);
      this.deps.store.error(notOfferedMessage(resolved.server, resolved.name, state, available), ['showLogs']);
      return true;
    }
    const turn = await this.prepare(resolved.prompt, parsed.rest, text);
    if (turn !== undefined) await this.deps.controller.send(turn);
    return true;
  }

  /** From the MCP Servers view or the palette: opens the chat and runs the prompt (or queues it while a turn runs). */
  async run(prompt: McpPromptInfo): Promise<void> {
    await this.deps.openChat();
    if (this.deps.controller.busy) {
      this.deps.chatView.prefill(`/${promptCommand(prompt)} `);
      void vscode.window.showInformationMessage(PROMPT_BUSY_NOTE);
      return;
    }
    const text = await this.prepare(prompt, '', undefined);
    if (text === undefined) return;
    // The command finishes now; the turn runs on and reports in the panel.
    this.deps.controller.send(text).catch((err: unknown) => {
      this.deps.log.error(`MCP prompt /${promptCommand(prompt)}: sending failed`, err);
      this.deps.store.error(`Sending the prompt failed: ${errorMessage(err)}`);
    });
  }

  /**
   * Asks the arguments and gets the prompt: the user's turn, or undefined when cancelled or failed (said in the
   * chat). `typed`: text after the command; `original`: the message as sent, put back in the box when cancelled.
   */
  private async prepare(prompt: McpPromptInfo, typed: string, original: string | undefined): Promise<string | undefined> {
    const { store, log } = this.deps;
    const command = promptCommand(prompt);
    if (this.deps.controller.busy) {
      store.error('A turn is already running. Press Stop first, or wait for it to finish.');
      return undefined;
    }
    const answers = await askArguments(command, prompt.arguments);
    if (!answers) {
      log.info(`MCP prompt /${command}: cancelled while asking its arguments; nothing was sent`);
      if (original !== undefined) this.deps.chatView.prefill(original);
      return undefined;
    }
    let text: string;
    try {
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Running /${command}…` }, () =>
        this.deps.source.getPrompt(prompt.server, prompt.name, promptArguments(prompt, answers), AbortSignal.timeout(PROMPT_TIMEOUT_MS)),
      );
      text = promptTurnText(command, result, typed);
      log.info(`MCP prompt /${command}: ${result.messages.length} message(s) become the user's turn`);
    } catch (err) {
      log.warn(`MCP prompt /${command} failed: ${errorMessage(err)}`);
      store.error(`The prompt /${command} failed: ${errorMessage(err)}`, ['showLogs']);
      return undefined;
    }
    return text;
  }
}

/** One input box per argument, in order. Undefined when the user pressed Escape. */
async function askArguments(command: string, args: readonly McpPromptArgumentInfo[]): Promise<string[] | undefined> {
  const answers: string[] = [];
  for (const [i, arg] of args.entries()) {
    const value = await vscode.window.showInputBox({
      title: `/${command}${args.length > 1 ? ` (${i + 1}/${args.length})` : ''}`,
      prompt: `${arg.name}${arg.required ? '' : ' (optional)'}${arg.description ? `: ${arg.description}` : ''}`,
      placeHolder: arg.required ? `${arg.name} (required)` : `${arg.name} (optional: press Enter to leave it out)`,
      ignoreFocusOut: true,
      validateInput: (v) => (arg.required && v.trim() === '' ? `${arg.name} is required. Type a value, or press Escape to cancel.` : undefined),
    });
    if (value === undefined) return undefined;
    answers.push(value);
  }
  return answers;
}
