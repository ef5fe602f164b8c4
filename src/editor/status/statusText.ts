// The status bar item's text and tooltip. Pure (unit-tested); statusBar.ts puts it on screen.

export interface StatusInfo {
  /** Empty when no model is chosen yet. */
  model: string;
  used: number;
  /** null when the server did not say and no context size is configured. */
  available: number | null;
  busy: boolean;
  /** Why the server cannot be reached, when a probe failed. */
  unreachable?: string;
  /** Restricted Mode: only read tools. */
  restricted?: boolean;
  /** What the MCP tools cost, e.g. "MCP tools: 9 from \"memory\", about 1,234 tokens of every request." */
  mcpTools?: string;
}

/** 950 → "950", 1234 → "1.2k", 12345 → "12k", 1_200_000 → "1.2M"; window sizes like 32768 → "32k" as people say them. */
export function formatTokens(n: number): string {
  const v = Math.max(0, Math.round(n));
  if (v < 1000) return String(v);
  if (v % 1024 === 0 && v < 1024 * 1024) return `${v / 1024}k`;
  if (v < 10_000) return `${trimZero((v / 1000).toFixed(1))}k`;
  if (v < 1_000_000) return `${Math.round(v / 1000)}k`;
  return `${trimZero((v / 1_000_000).toFixed(1))}M`;
}

function trimZero(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

export function statusText(info: StatusInfo): string {
  const icon = info.unreachable ? '$(debug-disconnect)' : info.busy ? '$(loading~spin)' : '$(hubot)';
  const model = info.model || 'no model';
  const usage = `${formatTokens(info.used)}/${info.available === null ? '?' : formatTokens(info.available)}`;
  return `${icon} ${model} · ${usage}${info.restricted ? ' $(shield)' : ''}`;
}

export function statusTooltip(info: StatusInfo): string {
  const lines = [`Local Harness: ${info.model ? `model ${info.model}` : 'no model selected'}`];
  const available = info.available === null ? 'an unknown number of' : info.available.toLocaleString('en-US');
  lines.push(`Context: ${info.used.toLocaleString('en-US')} of ${available} tokens used by the last request.`);
  if (info.busy) lines.push('Working on a turn…');
  if (info.unreachable) lines.push(info.unreachable);
  if (info.restricted) lines.push('Restricted Mode: only read tools are offered until you trust this workspace.');
  if (info.mcpTools) lines.push(info.mcpTools);
  lines.push('Click to open the chat.');
  return lines.join('\n');
}
