// What the "MCP Servers" view shows for each server: label, one-line state, tooltip, icon and the context value
// the inline actions key on. Pure (no 'vscode' import), so the wording is unit-tested.
import type { McpServerStatus } from '../../mcp/types';
import { describeSource } from './configSources';

export type ServerIcon = 'ready' | 'starting' | 'blocked' | 'failed' | 'stopped';

export interface ServerRow {
  label: string;
  description: string;
  tooltip: string;
  /** Screen readers read this instead of label + description. */
  ariaLabel: string;
  icon: ServerIcon;
  /** `mcpServer.running` or `mcpServer.idle`: package.json shows stop/restart or start inline. */
  contextValue: string;
}

const WAITING_FOR_CONSENT = 'waiting for your consent';

export function serverRow(status: McpServerStatus): ServerRow {
  const { state, message } = status;
  const firstLine = message?.split('\n')[0]?.trim() ?? '';
  const count = status.tools.length;
  let description: string;
  let icon: ServerIcon;
  switch (state) {
    case 'ready':
      description = `ready with ${count} tool${count === 1 ? '' : 's'}`;
      icon = 'ready';
      break;
    case 'starting':
      description = message === WAITING_FOR_CONSENT ? 'awaiting your consent' : 'starting…';
      icon = message === WAITING_FOR_CONSENT ? 'blocked' : 'starting';
      break;
    case 'restarting':
      description = `restarting (attempt ${status.restartAttempts})…`;
      icon = 'starting';
      break;
    case 'blocked':
      description = /not trusted/i.test(firstLine) ? 'blocked: workspace not trusted' : 'blocked: needs your consent';
      icon = 'blocked';
      break;
    case 'failed':
      description = `failed: ${firstLine || 'unknown error'}`;
      icon = 'failed';
      break;
    case 'stopped':
      // "stopped by the user" says it already; other reasons go in brackets.
      description = !firstLine ? 'stopped' : firstLine.startsWith('stopped') ? firstLine : `stopped (${firstLine})`;
      icon = 'stopped';
      break;
  }
  const running = state === 'ready' || state === 'starting' || state === 'restarting';
  const tooltip = [
    `${status.name}: ${description}`,
    status.commandLine,
    `Defined in ${describeSource(status.source)}.`,
    ...(state === 'ready' ? [`Tool definitions: about ${status.toolTokens.toLocaleString('en-US')} tokens of every request.`] : []),
    ...(status.skippedTools.length ? [`Skipped tools: ${status.skippedTools.map((t) => `${t.name} (${t.reason})`).join('; ')}`] : []),
    ...(message && (state === 'failed' || state === 'blocked' || state === 'restarting') ? ['', message] : []),
  ].join('\n');
  return {
    label: status.name,
    description,
    tooltip,
    ariaLabel: `${status.name}: ${description}`,
    icon,
    contextValue: running ? 'mcpServer.running' : 'mcpServer.idle',
  };
}

/**
 * "MCP tools: 9 from 1 server, about 1,234 tokens of every request", or undefined when no server offers tools.
 * `restricted`: Restricted Mode offers only the read tools.
 */
/** What the tool pre-filter offered in the last request (the `tools_offered` event). */
export interface OfferedTools {
  offered: readonly string[];
  total: number;
  tokensAll: number;
  tokensOffered: number;
}

export function toolsSummary(statuses: readonly McpServerStatus[], restricted = false, lastOffered?: OfferedTools): string | undefined {
  const ready = statuses.filter((s) => s.state === 'ready' && s.tools.length > 0);
  if (ready.length === 0) return undefined;
  const tools = ready.reduce((n, s) => n + s.tools.length, 0);
  const tokens = ready.reduce((n, s) => n + s.toolTokens, 0);
  const servers = ready.length === 1 ? `"${ready[0]!.name}"` : `${ready.length} servers`;
  // When the pre-filter chose tools, "of every request" is no longer true: say what the last request offered.
  const saved = lastOffered ? Math.max(0, lastOffered.tokensAll - lastOffered.tokensOffered) : 0;
  let text = lastOffered
    ? `MCP tools: ${tools} from ${servers}; ${lastOffered.offered.length} of ${lastOffered.total} tools offered (−${saved.toLocaleString('en-US')} tokens).`
    : `MCP tools: ${tools} from ${servers}, about ${tokens.toLocaleString('en-US')} tokens of every request.`;
  if (restricted) {
    const read = ready.reduce((n, s) => n + s.tools.filter((t) => t.risk === 'read').length, 0);
    text += ` Restricted Mode: only the ${read} read-only tool${read === 1 ? '' : 's'} ${read === 1 ? 'is' : 'are'} offered.`;
  }
  return text;
}

/** Statuses for servers the manager doesn't run yet (nothing started): shown as stopped, with why. */
export function notStartedStatus(name: string, source: McpServerStatus['source'], commandLine: string): McpServerStatus {
  return {
    name,
    source,
    state: 'stopped',
    message: 'starts when you open the chat',
    commandLine,
    tools: [],
    skippedTools: [],
    toolTokens: 0,
    restartAttempts: 0,
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
}
