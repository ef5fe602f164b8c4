// Turns raw resources/list, resources/templates/list, prompts/list and resources/read entries into our shapes.
// Entries are checked one by one: a malformed one is skipped (and reported), never hides the rest.
import type { McpPromptInfo, McpResourceInfo, McpResourcePart, McpResourceTemplateInfo } from './types';
import { base64Bytes } from './content';

export interface McpCatalog {
  resources: McpResourceInfo[];
  resourceTemplates: McpResourceTemplateInfo[];
  prompts: McpPromptInfo[];
}

export const EMPTY_CATALOG: McpCatalog = Object.freeze({ resources: [], resourceTemplates: [], prompts: [] }) as McpCatalog;

type Json = Record<string, unknown>;
type Skip = (what: string) => void;

export function toResourceInfos(server: string, raw: readonly unknown[], skip: Skip): McpResourceInfo[] {
  const out: McpResourceInfo[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    if (!isObject(entry) || typeof entry.uri !== 'string' || entry.uri === '') {
      skip(`resource without a uri: ${preview(entry)}`);
      continue;
    }
    if (seen.has(entry.uri)) continue;
    seen.add(entry.uri);
    out.push({
      server,
      uri: entry.uri,
      name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : entry.uri,
      ...optionalText(entry, 'title'),
      ...optionalText(entry, 'description'),
      ...optionalText(entry, 'mimeType'),
      ...(typeof entry.size === 'number' && Number.isFinite(entry.size) && { size: entry.size }),
    });
  }
  return out;
}

/** `variablesOf` parses a URI template (the SDK's UriTemplate) and throws on a malformed one. */
export function toTemplateInfos(server: string, raw: readonly unknown[], variablesOf: (template: string) => string[], skip: Skip): McpResourceTemplateInfo[] {
  const out: McpResourceTemplateInfo[] = [];
  for (const entry of raw) {
    if (!isObject(entry) || typeof entry.uriTemplate !== 'string' || entry.uriTemplate === '') {
      skip(`resource template without a uriTemplate: ${preview(entry)}`);
      continue;
    }
    let variables: string[];
    try {
      variables = [...new Set(variablesOf(entry.uriTemplate))];
    } catch (err) {
      skip(`resource template "${entry.uriTemplate}" is malformed: ${(err as Error).message}`);
      continue;
    }
    out.push({
      server,
      uriTemplate: entry.uriTemplate,
      name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : entry.uriTemplate,
      ...optionalText(entry, 'title'),
      ...optionalText(entry, 'description'),
      ...optionalText(entry, 'mimeType'),
      variables,
    });
  }
  return out;
}

export function toPromptInfos(server: string, raw: readonly unknown[], skip: Skip): McpPromptInfo[] {
  const out: McpPromptInfo[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') {
      skip(`prompt without a name: ${preview(entry)}`);
      continue;
    }
    if (seen.has(entry.name)) continue;
    seen.add(entry.name);
    const args = Array.isArray(entry.arguments) ? entry.arguments : [];
    out.push({
      server,
      name: entry.name,
      ...optionalText(entry, 'title'),
      ...optionalText(entry, 'description'),
      arguments: args
        .filter((a): a is Json => isObject(a) && typeof a.name === 'string' && a.name !== '')
        .map((a) => ({ name: a.name as string, ...optionalText(a, 'description'), required: a.required === true })),
    });
  }
  return out;
}

/** The `contents` of resources/read. Parts with neither text nor blob are reported and left out. */
export function toResourceParts(raw: readonly unknown[], requestedUri: string, skip: Skip): McpResourcePart[] {
  const out: McpResourcePart[] = [];
  for (const entry of raw) {
    if (!isObject(entry)) {
      skip(`resource content that is not an object: ${preview(entry)}`);
      continue;
    }
    const uri = typeof entry.uri === 'string' && entry.uri !== '' ? entry.uri : requestedUri;
    const mime = optionalText(entry, 'mimeType');
    if (typeof entry.text === 'string') out.push({ uri, ...mime, text: entry.text });
    else if (typeof entry.blob === 'string') out.push({ uri, ...mime, blob: entry.blob, bytes: base64Bytes(entry.blob) });
    else skip(`resource content of ${uri} has neither text nor blob`);
  }
  return out;
}

function optionalText<K extends string>(entry: Json, key: K): { [P in K]?: string } {
  const value = entry[key];
  return (typeof value === 'string' && value !== '' ? { [key]: value } : {}) as { [P in K]?: string };
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function preview(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value);
  }
}
