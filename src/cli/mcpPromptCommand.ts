// `localharness mcp prompt SERVER NAME [--arg NAME=VALUE]...`: print a server prompt's messages. Arguments are
// checked against the prompt's own list first, so a missing or misspelt one is a usage error that lists them.
import type { McpManager } from '../mcp/manager';
import type { McpPromptInfo, McpPromptResult } from '../mcp/types';
import { UsageError, type McpPromptOptions } from './args';
import { startServer, type McpCommandIo } from './mcpStart';

export async function promptCommand(options: McpPromptOptions, manager: McpManager, io: McpCommandIo, signal: AbortSignal): Promise<number> {
  const status = await startServer(manager, options.server, options.mcpConfig, signal);
  const prompt = status.prompts.find((p) => p.name === options.name);
  if (!prompt) {
    const names = status.prompts.map((p) => p.name);
    throw new Error(`MCP server "${options.server}" has no prompt "${options.name}"${names.length ? ` (its prompts: ${names.join(', ')})` : ' (it has none)'}`);
  }
  checkPromptArgs(prompt, options.args);
  // A failure (the server refusing the arguments) throws with a message naming the server and the prompt.
  const result: McpPromptResult = await manager.getPrompt(options.server, options.name, options.args, signal);
  io.stdout.write(options.json ? JSON.stringify({ server: options.server, prompt: options.name, ...result }, null, 2) + '\n' : messagesText(result));
  return 0;
}

/** Throws a UsageError naming every argument when a required one is missing or an unknown one is given. */
export function checkPromptArgs(prompt: McpPromptInfo, args: Record<string, string>): void {
  const given = Object.keys(args);
  const missing = prompt.arguments.filter((a) => a.required && !given.includes(a.name)).map((a) => a.name);
  const unknown = given.filter((name) => !prompt.arguments.some((a) => a.name === name));
  if (missing.length === 0 && unknown.length === 0) return;
  const problem = [
    missing.length && `missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    unknown.length && `no argument named ${unknown.join(', ')}`,
  ]
    .filter(Boolean)
    .join('; ');
  throw new UsageError(`prompt "${prompt.name}": ${problem}.\n${argumentsHelp(prompt)}`);
}

export function argumentsHelp(prompt: McpPromptInfo): string {
  if (prompt.arguments.length === 0) return `It takes no arguments.`;
  const lines = prompt.arguments.map((a) => `  --arg ${a.name}=…  ${a.required ? '(required)' : '(optional)'}${a.description ? ` ${a.description}` : ''}`);
  return `Its arguments:\n${lines.join('\n')}`;
}

/** Each message under a `[role]` header, separated by a blank line. */
export function messagesText(result: McpPromptResult): string {
  if (result.messages.length === 0) return '(the prompt has no messages)\n';
  return result.messages.map((m) => `[${m.role}]\n${m.text.replace(/\n?$/, '\n')}`).join('\n');
}
