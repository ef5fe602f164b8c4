// `localharness mcp resource SERVER URI`: read one resource. Text is printed; binary parts are described in a
// line (a terminal is no place for bytes) unless --out FILE takes the content. A resource template, named by
// its name or uriTemplate, is filled from --arg NAME=VALUE first.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpManager } from '../mcp/manager';
import type { McpResourcePart, McpResourceTemplateInfo } from '../mcp/types';
import { UsageError, type McpResourceOptions } from './args';
import { startServer, type McpCommandIo } from './mcpStart';
import { printable } from './terminalLines';

export async function resourceCommand(options: McpResourceOptions, manager: McpManager, io: McpCommandIo, signal: AbortSignal): Promise<number> {
  const status = await startServer(manager, options.server, options.mcpConfig, signal);
  const uri = resolveUri(options, status.resourceTemplates, manager);
  let parts: McpResourcePart[];
  try {
    parts = await manager.readResource(options.server, uri, signal);
  } catch (e) {
    if (signal.aborted) throw e;
    // The client's message already names the server and the URI.
    throw new Error(`${(e as Error).message ?? String(e)} (\`mcp list\` shows its resources and templates)`);
  }
  if (options.out !== undefined) {
    const file = path.resolve(options.out);
    const bytes = Buffer.concat(parts.map((p) => ('blob' in p ? Buffer.from(p.blob, 'base64') : Buffer.from(p.text, 'utf8'))));
    await writeFile(file, bytes);
    io.stderr.write(`localharness: wrote ${bytes.length} bytes to ${file}\n`);
  }
  if (options.json) io.stdout.write(JSON.stringify({ server: options.server, uri, parts }, null, 2) + '\n');
  else if (options.out === undefined) io.stdout.write(partsText(parts));
  return 0;
}

/** The URI to read: the argument itself, or the template it names filled from --arg. */
export function resolveUri(
  options: Pick<McpResourceOptions, 'server' | 'uri' | 'args'>,
  templates: readonly McpResourceTemplateInfo[],
  expander: Pick<McpManager, 'expandTemplate'>,
): string {
  const template = templates.find((t) => t.uriTemplate === options.uri) ?? templates.find((t) => t.name === options.uri);
  const given = Object.keys(options.args);
  if (!template) {
    if (given.length === 0) return options.uri;
    const names = templates.map((t) => `${t.name} (${t.uriTemplate})`);
    throw new UsageError(
      `--arg only fills a resource template, and "${options.uri}" is not one of MCP server "${options.server}"'s templates` +
        (names.length ? `: ${names.join(', ')}` : ' (it has none)'),
    );
  }
  const missing = template.variables.filter((v) => !given.includes(v));
  const unknown = given.filter((name) => !template.variables.includes(name));
  if (missing.length || unknown.length) {
    const wanted = template.variables.map((v) => `--arg ${v}=…`).join(' ');
    const problem = [missing.length && `missing ${missing.join(', ')}`, unknown.length && `no variable named ${unknown.join(', ')}`].filter(Boolean).join('; ');
    throw new UsageError(`resource template "${template.name}" (${template.uriTemplate}): ${problem}. Give ${wanted || 'no --arg'}`);
  }
  return expander.expandTemplate(template, options.args);
}

/** Text parts as they are; a binary part as one line. Several parts each get a header naming them. */
export function partsText(parts: readonly McpResourcePart[]): string {
  if (parts.length === 0) return '(the resource is empty)\n';
  return parts
    .map((part) => {
      const body =
        'blob' in part
          ? `[binary ${part.mimeType ?? 'data'}, ${part.bytes} bytes: pass --out FILE to save it]`
          : part.text; // the content itself, like `cat`: a script piping it wants it unchanged
      const header = parts.length > 1 ? `--- ${printable(part.uri)}${part.mimeType ? ` (${part.mimeType})` : ''}\n` : '';
      return header + body.replace(/\n?$/, '\n');
    })
    .join('');
}
