// MCP prompts and resources in the chat: keeps the panel's slash commands and "@" button in step with the ready
// servers, routes sent `/server.prompt` messages to the prompt runner, and registers the commands behind the MCP
// Servers view's prompt and resource rows (also in the palette).
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import type { McpPromptInfo } from '../../mcp/types';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { Logger } from '../../editor/log/logger';
import type { McpChatSource } from './mcpChatSource';
import { McpPromptRunner } from './promptRunner';
import { promptCommand, slashCommandsOf } from '../../editor/mcp/promptTurn';
import { attachMcpResource } from './resourceAttacher';
import type { McpOffers } from '../chat/chatViewProvider';

export const ATTACH_RESOURCE_COMMAND = 'localharness.attachMcpResource';
export const RUN_PROMPT_COMMAND = 'localharness.runMcpPrompt';

export interface McpChatDeps {
  source: McpChatSource;
  controller: { readonly busy: boolean; send(text: string): Promise<void> };
  chatView: {
    focusInput(): void;
    prefill(text: string): void;
    setMcpOffers(offers: McpOffers): void;
    sendHandler: ((text: string) => Promise<boolean>) | undefined;
  };
  store: ChatStateStore;
  log: Logger;
}

export function registerMcpChat(deps: McpChatDeps): vscode.Disposable[] {
  const { source, chatView, log } = deps;
  const openChat = async () => {
    await vscode.commands.executeCommand('localharness.chat.focus');
    chatView.focusInput();
  };
  const runner = new McpPromptRunner({ ...deps, openChat });
  chatView.sendHandler = (text) => runner.handleSend(text);
  const publish = () =>
    chatView.setMcpOffers({ prompts: slashCommandsOf(source.prompts()), resources: source.resources().length + source.resourceTemplates().length });
  publish();

  const commands: Record<string, (arg?: unknown) => Promise<void>> = {
    [ATTACH_RESOURCE_COMMAND]: (arg) => attachMcpResource({ source, store: deps.store, log, openChat }, arg),
    [RUN_PROMPT_COMMAND]: async (arg) => {
      const prompt = arg === undefined ? await pickPrompt(source) : promptOf(arg, source.prompts());
      if (prompt) await runner.run(prompt);
    },
  };
  return [
    source.onDidChange(publish),
    { dispose: () => (chatView.sendHandler = undefined) },
    ...registerLoggedCommands(commands, log),
  ];
}

/** `{server, name}` from the MCP Servers view, looked up among the prompts offered now. */
function promptOf(arg: unknown, prompts: readonly McpPromptInfo[]): McpPromptInfo {
  const a = (arg && typeof arg === 'object' ? arg : {}) as Record<string, unknown>;
  const prompt = prompts.find((p) => p.server === a.server && p.name === a.name);
  if (!prompt) throw new Error('that prompt is no longer offered (its server stopped or changed its list)');
  return prompt;
}

async function pickPrompt(source: McpChatSource): Promise<McpPromptInfo | undefined> {
  if (source.prompts().length === 0) {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Local Harness: starting the MCP servers…' }, () => source.warmUp());
  }
  const prompts = source.prompts();
  if (prompts.length === 0) {
    void vscode.window.showInformationMessage('Local Harness: no running MCP server offers prompts. See the MCP Servers view.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    prompts.map((prompt) => ({
      label: `/${promptCommand(prompt)}`,
      description: prompt.title ?? '',
      detail: [prompt.description, prompt.arguments.length ? `asks for ${prompt.arguments.map((a) => a.name).join(', ')}` : undefined].filter(Boolean).join(' · '),
      prompt,
    })),
    { title: 'Local Harness: Run MCP Prompt', placeHolder: 'Choose a prompt; its messages become your next message', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.prompt;
}
