// "Attach MCP Resource…": a QuickPick of the resources and templates of every ready server (or the one clicked in
// the MCP Servers view); a template's variables are asked in input boxes. The result is a chip in the chat, read
// through its server only when the message is sent.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { McpResourceTemplateInfo } from '../../mcp/types';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { Logger } from '../../editor/log/logger';
import type { McpChatSource } from './mcpChatSource';
import { resourceChip, resourceChoices, targetOf, type ResourceChoice, type ResourceTarget } from '../../editor/mcp/resourceChoices';

export interface ResourceAttacherDeps {
  source: McpChatSource;
  store: ChatStateStore;
  log: Logger;
  openChat: () => Promise<void>;
}

/** `arg`: a resource or template from the MCP Servers view; absent from the palette or the chat's "@" button. */
export async function attachMcpResource(deps: ResourceAttacherDeps, arg?: unknown): Promise<void> {
  const { source } = deps;
  let target = arg === undefined ? undefined : targetOf(arg, source.resources(), source.resourceTemplates());
  if (arg !== undefined && !target) throw new Error('that resource is no longer offered (its server stopped or changed its list)');
  target ??= await pickTarget(source);
  if (!target) return;
  let filled: { uri: string; values: Record<string, string> } | undefined;
  if (target.kind === 'template') {
    const values = await askVariables(target.template);
    if (!values) return;
    filled = { uri: source.expandTemplate(target.template, values), values };
  }
  const chip = resourceChip(randomUUID(), target, filled);
  deps.store.addAttachment(chip);
  deps.log.info(`MCP resource attached: ${chip.server}:${chip.uri}`);
  await deps.openChat();
}

async function pickTarget(source: McpChatSource): Promise<ResourceTarget | undefined> {
  if (source.resources().length === 0 && source.resourceTemplates().length === 0) {
    // From the palette before the chat was opened: the servers start now (asking consent as usual).
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Local Harness: starting the MCP servers…' }, () => source.warmUp());
  }
  const { resources, templates } = resourceChoices(source.resources(), source.resourceTemplates());
  if (resources.length === 0 && templates.length === 0) {
    const configured = source.servers().length > 0;
    void vscode.window.showInformationMessage(
      configured
        ? 'Local Harness: no running MCP server offers resources. See the MCP Servers view.'
        : 'Local Harness: no MCP servers are configured (setting localharness.mcpServers or .vscode/mcp.json).',
    );
    return undefined;
  }
  type Item = vscode.QuickPickItem & { choice?: ResourceChoice };
  const section = (label: string, choices: ResourceChoice[]): Item[] =>
    choices.length ? [{ label, kind: vscode.QuickPickItemKind.Separator }, ...choices.map((choice) => ({ label: choice.label, description: choice.description, detail: choice.detail, choice }))] : [];
  const picked = await vscode.window.showQuickPick<Item>([...section('Resources', resources), ...section('Resource templates', templates)], {
    title: 'Local Harness: Attach MCP Resource',
    placeHolder: 'Choose a resource for your next message (it is read when you send it)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.choice?.target;
}

/** One input box per template variable. Undefined when the user pressed Escape. */
async function askVariables(template: McpResourceTemplateInfo): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  const name = template.title ?? template.name;
  for (const [i, variable] of template.variables.entries()) {
    const value = await vscode.window.showInputBox({
      title: `${name}${template.variables.length > 1 ? ` (${i + 1}/${template.variables.length})` : ''}`,
      prompt: `{${variable}} in ${template.uriTemplate}`,
      placeHolder: variable,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? `Type a value for ${variable}, or press Escape to cancel.` : undefined),
    });
    if (value === undefined) return undefined;
    values[variable] = value.trim();
  }
  return values;
}
