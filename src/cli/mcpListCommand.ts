// `localharness mcp list`: start every server of the file and show what each offers (or why it failed).
import type { McpListOptions } from './args';
import type { McpServerStatus } from '../mcp/types';
import type { OpenedCliMcp } from './cliMcp';
import { untilAborted, type McpCommandIo } from './mcpStart';
import { printable } from './terminalLines';

/** A server may change its lists right after the handshake (server-everything adds tools once it knows our capabilities). */
const SETTLE_QUIET_MS = 250;
const SETTLE_MAX_MS = 2000;

export async function listCommand(options: McpListOptions, mcp: OpenedCliMcp, io: McpCommandIo, signal: AbortSignal): Promise<number> {
  const { manager } = mcp;
  await untilAborted(manager.startAll(), signal);
  if (manager.statuses().some((s) => s.state === 'ready')) await untilAborted(settled(manager.onDidChange, SETTLE_QUIET_MS, SETTLE_MAX_MS), signal);
  const statuses = manager.statuses();
  io.stdout.write(options.json ? JSON.stringify(listJson(options.mcpConfig, statuses, mcp.configErrors), null, 2) + '\n' : listText(statuses, mcp.configErrors));
  // Some servers failing is what `list` is for; it fails only when nothing could be listed at all.
  const anyReady = statuses.some((s) => s.state === 'ready');
  return anyReady || (statuses.length === 0 && mcp.configErrors.length === 0) ? 0 : 1;
}

/** Resolves once nothing has changed for `quietMs` (or after `maxMs` whatever happens). */
function settled(onChange: (listener: () => void) => { dispose(): void }, quietMs: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let quiet = setTimeout(done, quietMs);
    const cap = setTimeout(done, maxMs);
    const subscription = onChange(() => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    });
    function done() {
      clearTimeout(quiet);
      clearTimeout(cap);
      subscription.dispose();
      resolve();
    }
  });
}

export function listJson(configPath: string, statuses: readonly McpServerStatus[], configErrors: readonly string[]): unknown {
  return {
    config: configPath,
    servers: statuses.map((s) => ({
      name: s.name,
      state: s.state,
      ...(s.message !== undefined && { message: s.message }),
      ...(s.serverInfo && { serverInfo: s.serverInfo }),
      tools: s.tools.map((t) => ({ name: t.mcpName, registeredName: t.registeredName, risk: t.risk })),
      skippedTools: s.skippedTools,
      resources: s.resources.map(({ server: _server, ...r }) => r),
      resourceTemplates: s.resourceTemplates.map(({ server: _server, ...t }) => t),
      prompts: s.prompts.map(({ server: _server, ...p }) => p),
    })),
    configErrors,
  };
}

export function listText(statuses: readonly McpServerStatus[], configErrors: readonly string[]): string {
  const out: string[] = [];
  const p = printable;
  if (statuses.length === 0) out.push('No MCP servers are defined in the file.');
  for (const s of statuses) {
    if (s.state !== 'ready') {
      out.push(`${p(s.name)}: ${s.state}${s.message ? ` — ${p(s.message)}` : ''}`, '');
      continue;
    }
    out.push(`${p(s.name)}: ready${s.serverInfo ? ` (${p(s.serverInfo.name)} ${p(s.serverInfo.version)})` : ''}`);
    section(out, 'tools', s.tools, (t) => `${p(t.mcpName)}  [${t.risk}]`);
    if (s.skippedTools.length) section(out, 'skipped tools', s.skippedTools, (t) => `${p(t.name)} — ${p(t.reason)}`);
    section(out, 'resources', s.resources, (r) => `${p(r.uri)}  ${p(r.title ?? r.name)}${r.mimeType ? ` (${p(r.mimeType)})` : ''}`);
    section(out, 'resource templates', s.resourceTemplates, (t) => `${p(t.uriTemplate)}  ${p(t.title ?? t.name)}`);
    section(out, 'prompts', s.prompts, (pr) => {
      const args = pr.arguments.map((a) => `${p(a.name)}${a.required ? '*' : ''}`).join(', ');
      return `${p(pr.name)}${args ? ` (${args})` : ''}${pr.description ? ` — ${p(pr.description)}` : ''}`;
    });
    out.push('');
  }
  if (statuses.some((s) => s.prompts?.some((pr) => pr.arguments.some((a) => a.required)))) out.push('* required prompt argument');
  for (const e of configErrors) out.push(`left out of the file: ${p(e)}`);
  return out.join('\n').replace(/\n*$/, '\n');
}

function section<T>(out: string[], title: string, items: readonly T[], line: (item: T) => string): void {
  out.push(`  ${title} (${items.length})${items.length ? ':' : ''}`);
  for (const item of items) out.push(`    ${line(item)}`);
}
