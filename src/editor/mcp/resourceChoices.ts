// MCP resources as choices (the Attach MCP Resource QuickPick, the MCP Servers view) and as chips. Pure: no
// vscode import, unit-tested.
import type { ResourceAttachment } from '../../shared/protocol';
import type { McpResourceInfo, McpResourceTemplateInfo } from '../../mcp/types';

/** What a choice attaches: a listed resource as it is, or a template once its variables are filled. */
export type ResourceTarget = { kind: 'resource'; resource: McpResourceInfo } | { kind: 'template'; template: McpResourceTemplateInfo };

export interface ResourceChoice {
  label: string;
  description: string;
  detail: string;
  target: ResourceTarget;
}

/** Listed resources first, then templates; each names its server in the detail line. */
export function resourceChoices(resources: readonly McpResourceInfo[], templates: readonly McpResourceTemplateInfo[]): { resources: ResourceChoice[]; templates: ResourceChoice[] } {
  return {
    resources: resources.map((r) => ({
      label: r.title ?? r.name,
      description: r.uri,
      detail: [r.server, r.description, r.mimeType].filter(Boolean).join(' · '),
      target: { kind: 'resource', resource: r },
    })),
    templates: templates.map((t) => ({
      label: t.title ?? t.name,
      description: t.uriTemplate,
      detail: [t.server, t.variables.length ? `fill in ${t.variables.join(', ')}` : undefined, t.description].filter(Boolean).join(' · '),
      target: { kind: 'template', template: t },
    })),
  };
}

/** The chip for a resource (`uri` given: a filled template, named after the template and its values). */
export function resourceChip(id: string, target: ResourceTarget, filled?: { uri: string; values: Record<string, string> }): ResourceAttachment {
  if (target.kind === 'resource') {
    const r = target.resource;
    return { id, kind: 'mcpResource', server: r.server, uri: r.uri, name: clip(r.title ?? r.name, 500), ...(r.mimeType && { mimeType: r.mimeType.slice(0, 200) }) };
  }
  const t = target.template;
  if (!filled) throw new Error(`the template ${t.uriTemplate} needs its variables filled first`);
  const values = Object.values(filled.values).join(', ');
  return {
    id,
    kind: 'mcpResource',
    server: t.server,
    uri: filled.uri,
    name: clip(values ? `${t.title ?? t.name}: ${values}` : (t.title ?? t.name), 500),
    ...(t.mimeType && { mimeType: t.mimeType.slice(0, 200) }),
  };
}

/**
 * What a command argument from the MCP Servers view names: `{server, uri}` (a resource) or `{server,
 * uriTemplate}` (a template), looked up in the current lists. Undefined when it names nothing offered now.
 */
export function targetOf(arg: unknown, resources: readonly McpResourceInfo[], templates: readonly McpResourceTemplateInfo[]): ResourceTarget | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Record<string, unknown>;
  if (typeof a.server !== 'string') return undefined;
  if (typeof a.uri === 'string') {
    const resource = resources.find((r) => r.server === a.server && r.uri === a.uri);
    return resource && { kind: 'resource', resource };
  }
  if (typeof a.uriTemplate === 'string') {
    const template = templates.find((t) => t.server === a.server && t.uriTemplate === a.uriTemplate);
    return template && { kind: 'template', template };
  }
  return undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
