// The built-in `read_resource` tool: the model reads a resource a running MCP server lists (or one of its
// templates fills). The description names the known URIs, so a weak model can copy one instead of guessing.
import { z } from 'zod';
import { fail, ok, type Tool } from '../core/tools/tool';
import { matchesTemplate } from './uriTemplates';
import type { McpResourceInfo, McpResourcePart, McpResourceTemplateInfo } from './types';

export const READ_RESOURCE_TOOL = 'read_resource';
/** URIs listed per server in the description and in errors. */
export const MAX_LISTED_URIS = 20;
/** Characters of resource text handed to the model. */
export const MAX_RESOURCE_CHARS = 20_000;

export interface ResourceSource {
  /** Resources and templates of the running servers, as now. */
  resources(): McpResourceInfo[];
  resourceTemplates(): McpResourceTemplateInfo[];
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourcePart[]>;
}

const schema = z.object({
  server: z.string().describe('Name of the MCP server, exactly as listed.'),
  uri: z.string().describe('URI of the resource, copied from the list (or a listed template with its {variables} filled in).'),
});
type Args = z.infer<typeof schema>;

/** A tool whose description lists what `source` offers right now; re-create it when the catalog changes. */
export function createReadResourceTool(source: ResourceSource): Tool<typeof schema> {
  const description = describeCatalog(source.resources(), source.resourceTemplates());
  return {
    name: READ_RESOURCE_TOOL,
    description,
    schema,
    risk: 'read',
    describeForApproval(args: Args) {
      const { server, uri } = clean(args);
      return { title: `Read the MCP resource ${uri} of server "${server}"`, detail: `Server: ${server}\nResource: ${uri}` };
    },
    async invoke(args: Args, ctx) {
      const { server, uri } = clean(args);
      const problem = checkTarget(source, server, uri);
      if (problem) return fail(problem);
      let parts: McpResourcePart[];
      try {
        parts = await source.readResource(server, uri, ctx.signal);
      } catch (err) {
        return fail(err instanceof Error ? err.message : String(err));
      }
      return ok(partsToText(parts, uri));
    },
  };
}

/** The tool's description: what it does, then per server its resources (up to 20) and templates. */
export function describeCatalog(resources: readonly McpResourceInfo[], templates: readonly McpResourceTemplateInfo[]): string {
  const lines = [
    'Read a resource (a document or data) that a connected MCP server offers. Pass the server name and a URI copied exactly from this list, or a listed template with every {variable} filled in.',
  ];
  for (const server of serversOf(resources, templates)) {
    lines.push(`Server "${server}":`);
    lines.push(...listUris(resources.filter((r) => r.server === server)));
    for (const t of templates.filter((x) => x.server === server)) lines.push(`- template ${t.uriTemplate}${t.description || t.title ? ` — ${t.title ?? t.description}` : ''}`);
  }
  return lines.join('\n');
}

function listUris(resources: readonly McpResourceInfo[]): string[] {
  const shown = resources.slice(0, MAX_LISTED_URIS).map((r) => `- ${r.uri}${r.name !== r.uri ? ` (${r.title ?? r.name}${r.mimeType ? `, ${r.mimeType}` : ''})` : ''}`);
  if (resources.length > MAX_LISTED_URIS) shown.push(`- … and ${resources.length - MAX_LISTED_URIS} more`);
  return shown;
}

function checkTarget(source: ResourceSource, server: string, uri: string): string | undefined {
  const resources = source.resources();
  const templates = source.resourceTemplates();
  const servers = serversOf(resources, templates);
  if (!servers.includes(server)) {
    return servers.length
      ? `No running MCP server named "${server}" offers resources. Servers with resources: ${servers.map((s) => `"${s}"`).join(', ')}.`
      : 'No running MCP server offers resources right now.';
  }
  const own = resources.filter((r) => r.server === server);
  const ownTemplates = templates.filter((t) => t.server === server);
  if (own.some((r) => r.uri === uri) || ownTemplates.some((t) => matchesTemplate(t.uriTemplate, uri))) return undefined;
  const known = [...listUris(own), ...ownTemplates.map((t) => `- template ${t.uriTemplate}`)];
  return `"${uri}" is not a resource of MCP server "${server}". Use one of these:\n${known.join('\n')}`;
}

/** Text parts as they are (with their URI when there are several), binary described; capped. */
export function partsToText(parts: readonly McpResourcePart[], requested: string): string {
  if (parts.length === 0) return `The resource ${requested} is empty.`;
  const blocks = parts.map((p) => {
    const header = `[${p.uri}${p.mimeType ? `, ${p.mimeType}` : ''}]`;
    if ('text' in p) return parts.length === 1 ? p.text : `${header}\n${p.text}`;
    return `${header} binary content, ${p.bytes} bytes (not shown).`;
  });
  const text = blocks.join('\n\n');
  if (text.length <= MAX_RESOURCE_CHARS) return text;
  return `${text.slice(0, MAX_RESOURCE_CHARS)}\n… [cut: the resource has ${text.length} characters; only the first ${MAX_RESOURCE_CHARS} are shown]`;
}

function serversOf(resources: readonly McpResourceInfo[], templates: readonly McpResourceTemplateInfo[]): string[] {
  return [...new Set([...resources.map((r) => r.server), ...templates.map((t) => t.server)])];
}

function clean(args: Args): Args {
  return { server: args.server.trim(), uri: args.uri.trim() };
}
