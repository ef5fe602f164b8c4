// A realistic tool set for the selection tests: our 11 built-ins plus the 14 tools of the published
// @modelcontextprotocol/server-filesystem, registered as an MCP server named "files" (`files__move_file`, …),
// exactly as the registry would send them. The filesystem list is a fixture captured from the real server;
// test/integration/toolSelection/realFilesystemServer.test.ts checks that it still matches.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolDefinition } from '../../../src/core/messages';
import { createBuiltinTools } from '../../../src/core/tools/builtin';
import { toDefinition } from '../../../src/core/tools/registry';

export interface McpToolFixture {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const FILESYSTEM_FIXTURE = path.resolve(__dirname, '../../fixtures/mcp/filesystemTools.json');

export function filesystemServerTools(): McpToolFixture[] {
  return (JSON.parse(readFileSync(FILESYSTEM_FIXTURE, 'utf8')) as { tools: McpToolFixture[] }).tools;
}

/** The MCP tools as the registry offers them: `<server>__<tool>`, the server's description and schema untouched. */
export function mcpDefinitions(server: string, tools: readonly McpToolFixture[]): ToolDefinition[] {
  return tools.map((t) => ({ name: `${server}__${t.name}`, description: t.description, parameters: t.inputSchema }));
}

export function builtinDefinitions(): ToolDefinition[] {
  return createBuiltinTools().map(toDefinition);
}

/** 11 built-ins + 14 filesystem tools = 25 definitions, in registry order. */
export function realisticDefinitions(): ToolDefinition[] {
  return [...builtinDefinitions(), ...mcpDefinitions('files', filesystemServerTools())];
}

/** `count` synthetic tools from a few made-up servers, with varied names, descriptions and schemas. */
export function syntheticDefinitions(count: number, seed = 7): ToolDefinition[] {
  let state = seed >>> 0;
  const rand = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
  const pick = <T,>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const servers = ['github', 'jira', 'slack', 'postgres', 'browser', 'calendar', 'docker', 'k8s', 'notion', 'sentry', 'stripe', 'email'];
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'archive', 'export', 'import', 'sync', 'merge', 'close', 'open', 'assign', 'tag'];
  const things = ['issue', 'pull_request', 'comment', 'channel', 'message', 'table', 'row', 'page', 'event', 'container', 'pod', 'invoice', 'customer', 'label', 'branch', 'release', 'user', 'team', 'dashboard', 'alert'];
  const extras = ['for the current project', 'with optional filters', 'and return a short summary', 'by id or name', 'in bulk', 'as JSON', 'including metadata'];
  const out: ToolDefinition[] = [];
  const taken = new Set<string>();
  for (let i = 0; out.length < count; i++) {
    const server = pick(servers);
    const verb = pick(verbs);
    const thing = pick(things);
    let name = `${server}__${verb}_${thing}`;
    if (taken.has(name)) name = `${name}_${i}`;
    taken.add(name);
    const words = thing.replace('_', ' ');
    out.push({
      name,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${words} in ${server} ${pick(extras)}. Use this when the user asks to ${verb} a ${words}.`,
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `The ${words} id` },
          ...(rand() < 0.5 && { query: { type: 'string', description: 'Free-text filter' } }),
          ...(rand() < 0.3 && { limit: { type: 'number', description: 'Maximum results to return' } }),
        },
        required: ['id'],
      },
    });
  }
  return out;
}
