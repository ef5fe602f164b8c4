// Filling and matching resource templates (RFC 6570) with the SDK's UriTemplate. Templates only come from
// servers that started, so the lazily loaded SDK is already there when these run.
import { loadedMcpSdk, type McpSdk } from './sdk';
import type { McpResourceTemplateInfo } from './types';

/** The template with every variable filled; throws naming what is missing or unknown. */
export function expandTemplate(template: Pick<McpResourceTemplateInfo, 'uriTemplate' | 'variables'>, values: Record<string, string>): string {
  const { UriTemplate } = sdk();
  const parsed = new UriTemplate(template.uriTemplate);
  const names = parsed.variableNames;
  const missing = names.filter((n) => values[n] === undefined || values[n] === '');
  if (missing.length) throw new Error(`the resource template ${template.uriTemplate} needs a value for ${missing.map((n) => `{${n}}`).join(', ')}`);
  const unknown = Object.keys(values).filter((k) => !names.includes(k));
  if (unknown.length) throw new Error(`the resource template ${template.uriTemplate} has no variable ${unknown.map((n) => `{${n}}`).join(', ')} (it has ${names.map((n) => `{${n}}`).join(', ') || 'none'})`);
  return parsed.expand(values);
}

/** True when `uri` is an expansion of the template. */
export function matchesTemplate(uriTemplate: string, uri: string): boolean {
  try {
    return new (sdk().UriTemplate)(uriTemplate).match(uri) !== null;
  } catch {
    return false;
  }
}

function sdk(): McpSdk {
  const loaded = loadedMcpSdk();
  if (!loaded) throw new Error('resource templates come from a running MCP server; start one first');
  return loaded;
}
