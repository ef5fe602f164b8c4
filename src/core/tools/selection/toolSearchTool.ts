// tool_search: when the pre-filter left a tool out, the model can ask for it by keyword. What it finds is
// offered from the next model call on, for the rest of the turn. Weak models fill the schema clumsily, so
// a list of words, a number as text and a few obvious other names for "query" are accepted.
import { z } from 'zod';
import type { ToolDefinition } from '../../messages';
import { defineTool, fail, ok, type Tool } from '../tool';
import { firstSentence } from './compactSchema';
import type { ToolSelector } from './toolSelector';

export const TOOL_SEARCH_TOOL_NAME = 'tool_search';
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

const QUERY_HINT = 'query must be a few words naming the tool you need, e.g. {"query": "rename file"}';
/** Names weak models use instead of "query". */
const QUERY_ALIASES = ['keywords', 'keyword', 'q', 'search', 'words', 'text', 'name', 'tool', 'tools'];

const queryText = z.preprocess(
  (v) => (Array.isArray(v) && v.length > 0 && v.every((w) => typeof w === 'string' || typeof w === 'number') ? v.join(' ') : v),
  // refine, not min(1): the check stays out of the JSON Schema, which is sent on every request.
  z.string({ error: QUERY_HINT }).trim().refine((q) => q.length > 0, { error: QUERY_HINT }),
);

/** A number, or a number written as text ("5"); clamped when used rather than refused. */
const looseNumber = z.preprocess((v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v), z.number());

const schema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw) || 'query' in raw) return raw;
    const record = raw as Record<string, unknown>;
    const alias = QUERY_ALIASES.find((k) => record[k] !== undefined);
    return alias ? { ...record, query: record[alias] } : raw;
  },
  z.object({
    query: queryText,
    limit: looseNumber.optional(),
  }),
);

export function createToolSearchTool(selector: ToolSelector, allDefinitions: () => ToolDefinition[]): Tool<typeof schema> {
  return defineTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description: 'Find more tools by keywords, e.g. "rename file". Found tools can be called from your next step.',
    schema,
    risk: 'read',
    describeForApproval: (args) => ({ title: `Search the tools for "${args.query}"`, detail: args.query }),
    async invoke(args) {
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT)));
      const searchable = allDefinitions().filter((d) => d.name !== TOOL_SEARCH_TOOL_NAME);
      if (searchable.length === 0) return fail('There are no other tools to search.');
      const hits = selector.search(searchable, args.query, limit);
      if (hits.length === 0) {
        return ok(
          `No tool matches "${args.query}". Try other words: the action (read, write, move, search, run, create) or the thing it works on (file, folder, issue, page).`,
        );
      }
      const offered = new Set(selector.lastOffered);
      selector.requestTools(hits.map((h) => h.definition.name));
      const fresh = hits.filter((h) => !offered.has(h.definition.name)).length;
      const lines = hits.map((h) => {
        const note = offered.has(h.definition.name) ? ' (already available)' : '';
        return `- ${h.definition.name}: ${firstSentence(h.definition.description, 120)}${note}`;
      });
      const when = fresh > 0 ? 'You can call them from your next step.' : 'You can call them now.';
      return ok(`Found ${hits.length} tool${hits.length === 1 ? '' : 's'} for "${args.query}". ${when}\n${lines.join('\n')}`);
    },
  });
}
