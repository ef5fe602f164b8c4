// MCP prompts in the chat, the pure part: which slash commands the panel offers, what a typed `/name` refers to,
// and the user's turn a prompt's messages become. No vscode import: unit-tested.
import type { SlashCommand } from '../../shared/protocol';
import type { McpPromptInfo, McpPromptResult } from '../../mcp/types';

const MAX_DESCRIPTION = 300;

/** `server.prompt`: what the user types after the slash. */
export function promptCommand(prompt: Pick<McpPromptInfo, 'server' | 'name'>): string {
  return `${prompt.server}.${prompt.name}`;
}

/**
 * The slash commands for the panel. A prompt whose name cannot be typed as one word (spaces, slashes) is left
 * out; it still runs from the MCP Servers view.
 */
export function slashCommandsOf(prompts: readonly McpPromptInfo[]): SlashCommand[] {
  const out: SlashCommand[] = [];
  const seen = new Set<string>();
  for (const prompt of prompts) {
    const command = promptCommand(prompt);
    if (!/^[^\s/]+$/.test(command) || command.length > 500 || seen.has(command)) continue;
    seen.add(command);
    const title = prompt.title && prompt.title !== prompt.name ? prompt.title.slice(0, 500) : undefined;
    const description = prompt.description ? clip(prompt.description.replace(/\s+/g, ' ').trim(), MAX_DESCRIPTION) : undefined;
    out.push({ command, ...(title && { title }), ...(description && { description }) });
  }
  return out;
}

export type ResolvedCommand =
  /** A prompt a ready server offers. */
  | { kind: 'prompt'; prompt: McpPromptInfo }
  /** Addressed to a configured server that does not offer it now (not running, or no such prompt). */
  | { kind: 'notOffered'; server: string; name: string };

/**
 * What `/command` means: one of the offered prompts, a prompt of a server that cannot run it now (said so, not
 * sent), or nothing (undefined: the message goes to the model as ordinary text, slash and all).
 * Server names may contain dots: the longest configured name that prefixes the command wins.
 */
export function resolvePromptCommand(command: string, prompts: readonly McpPromptInfo[], serverNames: readonly string[]): ResolvedCommand | undefined {
  const prompt = prompts.find((p) => promptCommand(p) === command);
  if (prompt) return { kind: 'prompt', prompt };
  const server = [...serverNames].sort((a, b) => b.length - a.length).find((s) => command.startsWith(`${s}.`) && command.length > s.length + 1);
  return server === undefined ? undefined : { kind: 'notOffered', server, name: command.slice(server.length + 1) };
}

/**
 * The user's turn a prompt becomes. Only user messages: their text, joined. When the prompt also supplies
 * assistant messages (an example answer, a primed exchange), the whole exchange is written out with who says
 * what, so the model does not mistake the prompt's words for its own earlier replies. Text the user typed after
 * the command comes last. Throws when there is nothing to send.
 */
export function promptTurnText(command: string, result: McpPromptResult, typed = ''): string {
  const messages = result.messages.filter((m) => m.text.trim() !== '');
  if (messages.length === 0) throw new Error(`the prompt /${command} returned no messages`);
  let body: string;
  if (messages.every((m) => m.role === 'user')) {
    body = messages.map((m) => m.text.trim()).join('\n\n');
  } else {
    const exchange = messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant (written by the prompt)'}:\n${m.text.trim()}`);
    body = [`The MCP prompt /${command} sets up this exchange; the assistant parts are examples from the prompt, not your earlier replies.`, ...exchange].join('\n\n');
  }
  const extra = typed.trim();
  return extra ? `${body}\n\n${extra}` : body;
}

/** The arguments as the server gets them: required ones as typed (trimmed), optional ones only when given. */
export function promptArguments(prompt: Pick<McpPromptInfo, 'arguments'>, answers: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  prompt.arguments.forEach((arg, i) => {
    const value = (answers[i] ?? '').trim();
    if (value !== '') args[arg.name] = value;
  });
  return args;
}

/** Why a `/server.name` the user sent cannot run now, in plain words with the next step. */
export function notOfferedMessage(server: string, name: string, state: string | undefined, available: readonly string[]): string {
  if (state === 'starting' || state === 'restarting') return `/${server}.${name}: the MCP server "${server}" is still starting. Send the message again in a moment.`;
  if (state !== 'ready') {
    const now = state === 'blocked' ? 'blocked (it needs your consent or a trusted workspace)' : state === 'failed' ? 'not running (it failed; see its log)' : 'not running';
    return `/${server}.${name}: the MCP server "${server}" is ${now}. Start it in the MCP Servers view, then send the message again.`;
  }
  const list = available.length ? ` Its prompts: ${available.map((p) => `/${server}.${p}`).join(', ')}.` : ' It offers no prompts.';
  return `/${server}.${name}: the MCP server "${server}" has no prompt "${name}".${list}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
