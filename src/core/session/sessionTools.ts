// The tools a session offers: the registry's definitions (one array while the tools are the same), the pre-filter's
// set that holds still and grows at its end, the list the system prompt names in xml mode (the set as chosen; later
// additions are described at the tail), and the hand-over of tools a model asked for by another name.
import type { ToolDefinition } from '../messages';
import type { EventBus } from '../agent/events';
import type { ToolSelectionState } from '../agent/turnRunner';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel, Tool } from '../tools/tool';
import { ToolSelector } from '../tools/selection/toolSelector';
import { StableToolSet } from '../tools/selection/stableToolSet';
import { renderToolList } from '../toolProtocol/textPrompt';
import { ToolIndex } from '../toolProtocol/toolIndex';

/** The tool that asks the pre-filter for more tools; pointless when every tool is offered anyway. */
const TOOL_SEARCH = 'tool_search';

export interface SessionToolsOptions {
  registry: ToolRegistry;
  allowedRisks?: readonly RiskLevel[];
  toolSelector?: ToolSelector;
  bus: EventBus;
}

export interface SelectionRound {
  state: ToolSelectionState;
  window: number;
  xml: boolean;
  signal: AbortSignal;
  /** Adds text to the newest message (new tools described at the tail in xml mode). */
  attach(block: string): Promise<void>;
}

export class SessionTools {
  private readonly toolSet: StableToolSet | undefined;
  private definitionsFor: { tools: readonly Tool[]; definitions: ToolDefinition[] } | undefined;
  /** The tools the system prompt lists in xml mode: the set as chosen, without later additions. */
  private listedSet: { generation: number; tools: readonly ToolDefinition[] } | undefined;
  /** select()'s list for one offered list (tool_search left out when everything is offered), kept by identity. */
  private offeredList: { from: readonly ToolDefinition[]; tools: readonly ToolDefinition[] } | undefined;
  private lastOfferKey: string | undefined;
  private fallbackSearcher: ToolSelector | undefined;

  constructor(private readonly o: SessionToolsOptions) {
    if (o.toolSelector) this.toolSet = new StableToolSet(o.toolSelector);
  }

  get filters(): boolean {
    return this.toolSet !== undefined;
  }

  /**
   * The registry's definitions (of the allowed risks), as the same array for as long as the registry holds the same
   * tools: the context manager's meter caches the tools' token estimate by array identity. Read-only for callers.
   */
  definitions(): ToolDefinition[] {
    const { registry, allowedRisks } = this.o;
    const tools = registry.list((t) => !allowedRisks || allowedRisks.includes(t.risk));
    const cached = this.definitionsFor;
    if (cached && cached.tools.length === tools.length && cached.tools.every((t, i) => t === tools[i])) return cached.definitions;
    const definitions = registry.definitions(allowedRisks);
    this.definitionsFor = { tools, definitions };
    return definitions;
  }

  /** What the system prompt lists (xml mode): the chosen set, or every tool before any choice. */
  listed(): readonly ToolDefinition[] {
    return this.listedSet?.tools ?? this.definitions();
  }

  /**
   * The tools the next request offers: the same array for as long as the offered set is the same (the meter and
   * the prompt-cache estimate cache by array identity). Read-only for callers.
   */
  async select(round: SelectionRound): Promise<readonly ToolDefinition[]> {
    const { state, signal } = round;
    // Tools named outright count only in the user's request: a tool result may list every tool there is.
    const offer = await this.toolSet!.offer({ definitions: state.tools, query: selectionQuery(state), namedIn: state.userText, keep: state.usedInTurn, window: round.window, signal });
    if (offer.notice) this.o.bus.emit({ type: 'notice', message: offer.notice });
    const tools = offer.filtered ? offer.tools : this.withoutToolSearch(offer.tools);
    if (offer.generation !== this.listedSet?.generation) this.listedSet = { generation: offer.generation, tools };
    else if (offer.added.length && round.xml) {
      const added = tools.filter((t) => offer.added.includes(t.name));
      await round.attach(`More tools you can call now (same <tool> format):\n${renderToolList(new ToolIndex(added))}`);
    }
    if (offer.filtered && offer.offered.join('\n') !== this.lastOfferKey) {
      // Said when the set is chosen or grows, not on every request: it holds still in between.
      this.lastOfferKey = offer.offered.join('\n');
      const { offered, totalTools: total, tokensAll, tokensOffered, ranking } = offer;
      this.o.bus.emit({ type: 'tools_offered', offered, total, tokensAll, tokensOffered, ranking });
    }
    return tools;
  }

  private withoutToolSearch(from: readonly ToolDefinition[]): readonly ToolDefinition[] {
    if (this.offeredList?.from !== from) this.offeredList = { from, tools: from.filter((t) => t.name !== TOOL_SEARCH) };
    return this.offeredList.tools;
  }

  /**
   * The registered tools a model asked for by another name or said it lacks: the same name, an MCP server's tool of
   * that name (`server__name`), or the best keyword match; offered from the next request on (added to the set).
   */
  handOver(names: readonly string[]): string[] {
    const definitions = this.definitions().filter((d) => d.name !== TOOL_SEARCH);
    const searcher = this.o.toolSelector ?? (this.fallbackSearcher ??= new ToolSelector());
    const found = new Set<string>();
    for (const name of names) {
      const hit =
        definitions.find((d) => d.name === name) ??
        definitions.find((d) => d.name.endsWith(`__${name}`)) ??
        searcher.search(definitions, name.replace(/[_.-]+/g, ' '), 1).find((h) => h.score > 0)?.definition;
      if (hit) found.add(hit.name);
    }
    if (found.size) this.o.toolSelector?.requestTools(found);
    return [...found];
  }
}

/** What the pre-filter ranks tools against: the user's request and the latest messages (briefly). */
function selectionQuery(state: ToolSelectionState): string {
  const recent = state.history
    .slice(-3)
    .filter((m) => m.role !== 'system')
    .map((m) => [m.content.slice(0, 400), ...(m.toolCalls ?? []).map((c) => c.name)].join(' '));
  return [state.userText, ...recent].join('\n');
}
