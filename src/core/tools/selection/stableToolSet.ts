// The tools a session offers, held still. Chat templates render the tool list near the start of the prompt, so a
// list that changes between requests makes a local server read the whole conversation again. Tools are filtered
// only when their definitions would not fit the window's share (not by count); the chosen set then stays the same
// request after request and turn after turn. A tool the model needs later (found with tool_search, called although
// it was not offered, named in a request) is added at the end of the list; nothing is reordered or reshuffled.
// The set is chosen afresh only when the registry changes (the user started or stopped an MCP server, changed
// trust): additions are the tools the model showed it needs, so the set grows only as far as the work goes.
import type { ToolDefinition } from '../../messages';
import { estimateToolDefinitionTokens } from '../../tokens';
import { compactToolDefinitions } from './compactSchema';
import type { ToolRanking, ToolSelectionInput, ToolSelector } from './toolSelector';

/**
 * The workspace tools every file task starts with, offered whenever they are registered: a model that cannot
 * list, read or search files cannot rename or fix them, and weak models do not think of tool_search.
 */
export const CORE_WORKSPACE_TOOLS = ['list_directory', 'read_file', 'search_files'] as const;

export type StableOfferInput = ToolSelectionInput;

export interface StableOffer {
  /** The held list itself (read-only): the same array until the set changes, so caches keyed by it hold. */
  tools: readonly ToolDefinition[];
  filtered: boolean;
  totalTools: number;
  offered: string[];
  tokensAll: number;
  tokensOffered: number;
  ranking: ToolRanking;
  /** Tools added at the end of the set for this request. */
  added: string[];
  /** The set was chosen afresh for this request (the request's tool list differs from the last one). */
  reselected: boolean;
  /** Counts the times a set was chosen (or everything offered): the same number means only additions since. */
  generation: number;
  notice?: string;
}

interface Held {
  /** The registry's definitions the set was chosen from (by identity). */
  from: readonly ToolDefinition[];
  /** Replaced, never changed in place: callers keep it and cache by its identity. */
  tools: readonly ToolDefinition[];
  tokens: number;
  ranking: ToolRanking;
}

export class StableToolSet {
  private held: Held | undefined;
  private generation = 0;

  constructor(private readonly selector: ToolSelector) {}

  /** Names of the tools in the set now (empty while every tool is offered). */
  get names(): readonly string[] {
    return this.held?.tools.map((d) => d.name) ?? [];
  }

  async offer(request: StableOfferInput): Promise<StableOffer> {
    const input = { ...request, keep: [...CORE_WORKSPACE_TOOLS, ...(request.keep ?? [])] };
    const { definitions } = input;
    const tokensAll = this.selector.totalTokensOf(definitions);
    const budget = this.selector.budgetFor(input.window);
    const base = { totalTools: definitions.length, tokensAll, added: [] as string[] };
    if (tokensAll <= budget) {
      if (this.held || this.generation === 0) this.generation++;
      this.held = undefined;
      const all = { tools: definitions, offered: definitions.map((d) => d.name), tokensOffered: tokensAll };
      return { ...base, ...all, filtered: false, ranking: 'all', reselected: false, generation: this.generation };
    }
    const held = this.held;
    const sameRegistry = held !== undefined && sameDefinitions(held.from, definitions);
    if (!held || !sameRegistry) return this.choose(input, tokensAll, held !== undefined);

    // Keep the set; add what is needed now at the end, in the order it is asked for.
    const have = new Set(held.tools.map((d) => d.name));
    const wanted = this.selector.mustOffer(definitions, input.namedIn ?? input.query, input.keep).filter((name) => !have.has(name));
    const added: string[] = [];
    let tools = held.tools;
    for (const name of wanted) {
      const def = definitions.find((d) => d.name === name);
      if (!def) continue;
      // Shortened when the full definition no longer fits; earlier tools are never rewritten.
      const room = Math.max(0, budget - held.tokens);
      const [fitted] = estimateToolDefinitionTokens([def]) > room ? compactToolDefinitions([def], room) : [def];
      tools = [...tools, fitted ?? def];
      added.push(name);
    }
    if (added.length) {
      held.tools = tools;
      held.tokens = estimateToolDefinitionTokens(tools);
    }
    return this.result(held, { ...base, added, reselected: false });
  }

  private async choose(input: StableOfferInput, tokensAll: number, wasHeld: boolean): Promise<StableOffer> {
    const selection = await this.selector.select(input);
    const held: Held = { from: input.definitions, tools: selection.tools, tokens: selection.tokensOffered, ranking: selection.ranking };
    this.held = held;
    this.generation++;
    return this.result(held, {
      totalTools: input.definitions.length,
      tokensAll,
      added: [],
      reselected: wasHeld,
      ...(selection.notice !== undefined && { notice: selection.notice }),
    });
  }

  private result(held: Held, extra: Pick<StableOffer, 'totalTools' | 'tokensAll' | 'added' | 'reselected' | 'notice'>): StableOffer {
    return {
      ...extra,
      generation: this.generation,
      tools: held.tools,
      filtered: held.tools.length < extra.totalTools,
      offered: held.tools.map((d) => d.name),
      tokensOffered: held.tokens,
      ranking: held.ranking,
    };
  }
}

/**
 * Same tools with the same definitions. The registry keeps a tool's schema object while the tool is unchanged, so
 * identity answers almost always; a restarted MCP server lists equal schemas as new objects.
 */
function sameDefinitions(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((d, i) => {
    const o = b[i]!;
    return d.name === o.name && d.description === o.description && (d.parameters === o.parameters || JSON.stringify(d.parameters) === JSON.stringify(o.parameters));
  });
}
