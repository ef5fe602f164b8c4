// The tool pre-filter. When the tool definitions would take too much of the window (or there are too many
// tools for a small model to choose from), each request offers the K tools most relevant to the request:
// ranked by embedding similarity when the server can embed, by BM25 keywords otherwise. Always offered: the
// configured tools (task_completion, ask_question, tool_search), tools used earlier in the turn, tools the
// model asked for with tool_search, and tools the request names outright. What is sent keeps the registry's
// order (a stable prompt prefix lets local servers reuse their cache) and is compacted to the budget if needed.
import { dot, EmbeddingUnavailableError, type Embedder } from '../../embeddings';
import type { ToolDefinition } from '../../messages';
import { estimateToolDefinitionTokens } from '../../tokens';
import { bm25Document, bm25Scores, topIndices, type Bm25Document } from './bm25';
import { compactToolDefinitions } from './compactSchema';
import { parseToolSelectionSettings, type ToolSelectionSettings, type ToolSelectionSettingsInput } from './toolSelectionSettings';
import { tokenize, toolEmbeddingText, toolTokens } from './toolText';
import { errorMessage } from '../../../shared/format';

export type ToolRanking = 'embedding' | 'keyword' | 'all';

export interface ToolSelectionInput {
  definitions: readonly ToolDefinition[];
  /** What tools are ranked against: the current user request and the latest messages (see toolQueryFrom). */
  query: string;
  /** Names of tools used earlier in this turn: offered again. */
  keep?: Iterable<string>;
  /** Where a tool named outright forces it in (default: the query). The user's request, not tool results. */
  namedIn?: string;
  /** The context window in tokens. */
  window: number;
  signal: AbortSignal;
}

export interface ToolSelection {
  /** What to send, in the order of `definitions`. */
  tools: ToolDefinition[];
  /** Some tools were left out. */
  filtered: boolean;
  /** Descriptions were shortened to fit the budget. */
  compacted: boolean;
  totalTools: number;
  /** Names of the tools sent. */
  offered: string[];
  /** Estimated tokens of all definitions. */
  tokensAll: number;
  /** Estimated tokens of what is sent. */
  tokensOffered: number;
  /** How the tools were ranked: 'all' when nothing had to be chosen. */
  ranking: ToolRanking;
  /** Said once per selector: embeddings failed and keyword ranking took over. */
  notice?: string;
}

export interface ToolSelectorOptions {
  settings?: ToolSelectionSettingsInput;
  /** Without one, tools are ranked by keywords. */
  embedder?: Embedder;
}

export interface ToolSearchHit {
  definition: ToolDefinition;
  score: number;
}

/** What the selector remembers about one tool, valid while its description and schema object stay the same. */
interface ToolInfo {
  def: ToolDefinition;
  doc?: Bm25Document;
  text?: string;
  vector?: Float32Array;
}

/** Longest query embedded or tokenised; the caller puts the user's request first. */
const MAX_QUERY_CHARS = 4000;
const QUERY_VECTOR_CACHE = 32;
const FITTED_CACHE = 64;

export class ToolSelector {
  readonly settings: ToolSelectionSettings;
  private readonly embedder: Embedder | undefined;
  /** Set once embeddings failed: keyword ranking for the rest of the session. */
  private embeddingFailure: string | undefined;
  private noticeGiven = false;
  private readonly requested = new Set<string>();
  private offeredLast: string[] = [];
  private readonly infos = new Map<string, ToolInfo>();
  private readonly queryVectors = new Map<string, Float32Array>();
  /** The tool set the total was last estimated for, compared by identity (estimating 1,000 tools takes ms). */
  private totalFor: { names: string[]; descriptions: string[]; parameters: unknown[]; tokens: number } | undefined;
  /** fit() results for the current tool set, by budget and tool names; `shortened[i]` set where tool i was compacted. */
  private readonly fitted = new Map<string, { shortened: Array<ToolDefinition | undefined> | undefined; tokens: number }>();

  constructor(options: ToolSelectorOptions = {}) {
    this.settings = parseToolSelectionSettings(options.settings ?? {});
    this.embedder = options.embedder;
  }

  /** 'embedding' while an embedder is set and has not failed. */
  get rankingMode(): 'embedding' | 'keyword' {
    return this.embedder && this.embeddingFailure === undefined ? 'embedding' : 'keyword';
  }

  /** Names of the tools sent by the last select(). */
  get lastOffered(): readonly string[] {
    return this.offeredLast;
  }

  /** Tools asked for with tool_search during this turn. */
  get requestedTools(): readonly string[] {
    return [...this.requested];
  }

  /** A new user turn: tools asked for during the last one are no longer forced in. */
  startTurn(): void {
    this.requested.clear();
  }

  /** Offer these tools from the next select() on, for the rest of the turn (tool_search). */
  requestTools(names: Iterable<string>): void {
    for (const name of names) this.requested.add(name);
  }

  /** Tokens the offered tools' definitions may take in a window of `window` tokens (0: unknown, no limit). */
  budgetFor(window: number): number {
    return window > 0 ? Math.floor(this.settings.maxShare * window) : Infinity;
  }

  async select(input: ToolSelectionInput): Promise<ToolSelection> {
    const { definitions, signal } = input;
    signal.throwIfAborted();
    const tokensAll = this.totalTokensOf(definitions);
    const budget = this.budgetFor(input.window);
    const base = { totalTools: definitions.length, tokensAll };
    if (definitions.length <= this.settings.maxOffered && tokensAll <= budget) {
      return this.finish({ ...base, tools: [...definitions], filtered: false, compacted: false, tokensOffered: tokensAll, ranking: 'all' });
    }

    const query = clipQuery(input.query);
    const must = new Set(this.mustOffer(definitions, input.namedIn ?? query, input.keep));
    const candidates = definitions.filter((d) => !must.has(d.name));
    const slots = Math.max(0, this.settings.maxOffered - must.size);

    // Ranking runs only when something has to be chosen (or dropped to fit).
    const state: { ranking: ToolRanking; notice?: string; ranked?: ToolDefinition[] } = { ranking: 'all' };
    const rank = async (): Promise<ToolDefinition[]> => {
      if (!state.ranked) {
        const result = await this.rank(candidates, query, signal);
        state.ranking = result.ranking;
        if (result.notice !== undefined) state.notice = result.notice;
        state.ranked = result.order.map((i) => candidates[i]!);
      }
      return state.ranked;
    };
    const pick = (kept: readonly ToolDefinition[]) => {
      const names = new Set(kept.map((d) => d.name));
      return definitions.filter((d) => must.has(d.name) || names.has(d.name));
    };

    let chosen: readonly ToolDefinition[] = candidates.length <= slots ? candidates : (await rank()).slice(0, slots);
    // Shorten first; if that is not enough, drop the least relevant chosen tools (tool_search can bring them back).
    let fit = this.fit(pick(chosen), budget);
    while (fit.tokens > budget && chosen.length > 0) {
      if (!state.ranked) chosen = await rank(); // everything was taken unranked; now the order matters
      chosen = chosen.slice(0, -1);
      fit = this.fit(pick(chosen), budget);
    }
    return this.finish({
      ...base,
      tools: fit.tools,
      filtered: fit.tools.length < definitions.length,
      compacted: fit.compacted,
      tokensOffered: fit.tokens,
      ranking: state.ranking,
      ...(state.notice !== undefined && { notice: state.notice }),
    });
  }

  /**
   * Tools matching a keyword query, best first: exact name first, then BM25 over names, descriptions and
   * parameter names. For tool_search, where the model types words, not sentences.
   */
  search(definitions: readonly ToolDefinition[], query: string, limit: number): ToolSearchHit[] {
    const words = new Set((query.match(/[A-Za-z0-9_-]+/g) ?? []).map((w) => w.toLowerCase()));
    const docs = definitions.map((d) => this.doc(d));
    const scores = bm25Scores(docs, tokenize(query));
    definitions.forEach((d, i) => {
      if (words.has(d.name.toLowerCase())) scores[i] += 1000;
    });
    return topIndices(scores, limit, true).map((i) => ({ definition: definitions[i]!, score: scores[i]! }));
  }

  private finish(selection: Omit<ToolSelection, 'offered'>): ToolSelection {
    const offered = selection.tools.map((d) => d.name);
    this.offeredLast = offered;
    return { ...selection, offered };
  }

  /**
   * Always offered, the turn's tools, requested ones, and tools the query names exactly; only registered names, in
   * the registry's order.
   */
  mustOffer(definitions: readonly ToolDefinition[], query: string, keep: Iterable<string> | undefined): string[] {
    const wanted = new Set<string>([...this.settings.alwaysOffer, ...(keep ?? []), ...this.requested]);
    const named = new Set(clipQuery(query).match(/[A-Za-z0-9_-]+/g) ?? []);
    return definitions.filter((d) => wanted.has(d.name) || named.has(d.name)).map((d) => d.name);
  }

  private async rank(
    candidates: readonly ToolDefinition[],
    query: string,
    signal: AbortSignal,
  ): Promise<{ order: number[]; ranking: 'embedding' | 'keyword'; notice?: string }> {
    if (this.embedder && this.embeddingFailure === undefined) {
      try {
        const scores = await this.embeddingScores(this.embedder, candidates, query, signal);
        return { order: topIndices(scores, candidates.length), ranking: 'embedding' };
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        this.embeddingFailure = describeFailure(this.embedder.model, err);
      }
    }
    const scores = bm25Scores(candidates.map((d) => this.doc(d)), tokenize(query));
    const result: { order: number[]; ranking: 'keyword'; notice?: string } = { order: topIndices(scores, candidates.length), ranking: 'keyword' };
    if (this.embeddingFailure !== undefined && !this.noticeGiven) {
      this.noticeGiven = true;
      result.notice = `Tool selection ranks tools by keywords for the rest of this session: ${this.embeddingFailure}`;
    }
    return result;
  }

  /** Cosine similarity of each candidate to the query; tool vectors are embedded once per selector. */
  private async embeddingScores(embedder: Embedder, candidates: readonly ToolDefinition[], query: string, signal: AbortSignal): Promise<Float64Array> {
    const infos = candidates.map((d) => this.info(d));
    const missing = infos.filter((info) => !info.vector);
    const hasQuery = query.trim() !== '';
    const queryVector = hasQuery ? this.queryVectors.get(query) : undefined;
    const texts = missing.map((info) => (info.text ??= toolEmbeddingText(info.def)));
    if (hasQuery && !queryVector) texts.push(query);
    if (texts.length > 0) {
      const vectors = await embedder.embed(texts, signal);
      if (vectors.length !== texts.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${texts.length} texts`);
      missing.forEach((info, i) => (info.vector = vectors[i]!));
      if (hasQuery && !queryVector) this.rememberQuery(query, vectors[vectors.length - 1]!);
    }
    const scores = new Float64Array(candidates.length);
    const q = hasQuery ? this.queryVectors.get(query) : undefined;
    // No query: every score is 0 and the registry order stands.
    if (q) for (let i = 0; i < infos.length; i++) scores[i] = dot(q, infos[i]!.vector!);
    return scores;
  }

  private rememberQuery(query: string, vector: Float32Array): void {
    this.queryVectors.set(query, vector);
    if (this.queryVectors.size > QUERY_VECTOR_CACHE) this.queryVectors.delete(this.queryVectors.keys().next().value as string);
  }

  private info(def: ToolDefinition): ToolInfo {
    const known = this.infos.get(def.name);
    if (known && known.def.description === def.description && known.def.parameters === def.parameters) return known;
    const fresh: ToolInfo = { def };
    this.infos.set(def.name, fresh);
    return fresh;
  }

  private doc(def: ToolDefinition): Bm25Document {
    const info = this.info(def);
    return (info.doc ??= bm25Document(toolTokens(def)));
  }

  /**
   * `tools` as sent within `budget`: unchanged when they fit, else compacted (as short as that gets). Every
   * request of a turn asks this for the same few tool sets, so results are kept while the tool set stays the
   * same (`totalTokens` forgets them when it changes); a tool compaction left alone is today's definition.
   */
  private fit(tools: ToolDefinition[], budget: number): { tools: ToolDefinition[]; tokens: number; compacted: boolean } {
    const key = `${budget}\n${tools.map((d) => d.name).join('\n')}`;
    let known = this.fitted.get(key);
    if (!known) {
      const tokens = estimateToolDefinitionTokens(tools);
      if (tokens <= budget) known = { shortened: undefined, tokens };
      else {
        const shortened = compactToolDefinitions(tools, budget);
        const changed = shortened.map((d, i) => d !== tools[i]);
        known = { shortened: changed.some(Boolean) ? shortened.map((d, i) => (changed[i] ? d : undefined)) : undefined, tokens: estimateToolDefinitionTokens(shortened) };
      }
      if (this.fitted.size >= FITTED_CACHE) this.fitted.delete(this.fitted.keys().next().value as string);
      this.fitted.set(key, known);
    }
    const shortened = known.shortened;
    return { tools: shortened ? tools.map((d, i) => shortened[i] ?? d) : [...tools], tokens: known.tokens, compacted: !!shortened };
  }

  /** Exact estimate of all definitions, recomputed only when the tool set changes. */
  totalTokensOf(definitions: readonly ToolDefinition[]): number {
    const last = this.totalFor;
    if (
      last &&
      last.names.length === definitions.length &&
      definitions.every((d, i) => d.name === last.names[i] && d.description === last.descriptions[i] && d.parameters === last.parameters[i])
    ) {
      return last.tokens;
    }
    const tokens = estimateToolDefinitionTokens(definitions);
    this.totalFor = {
      names: definitions.map((d) => d.name),
      descriptions: definitions.map((d) => d.description),
      parameters: definitions.map((d) => d.parameters),
      tokens,
    };
    this.fitted.clear();
    // The tool set changed: forget tools that are gone (their vectors stay in the embedder's cache).
    const present = new Set(this.totalFor.names);
    for (const name of this.infos.keys()) if (!present.has(name)) this.infos.delete(name);
    return tokens;
  }
}

/** The first MAX_QUERY_CHARS of a query; a query already that short is returned as it is (no copy). */
function clipQuery(query: string): string {
  return query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
}

function isAbort(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'AbortError' || (err as { kind?: unknown }).kind === 'aborted';
}

function describeFailure(model: string, err: unknown): string {
  if (err instanceof EmbeddingUnavailableError) return err.message;
  const message = errorMessage(err);
  return `embedding with "${model}" failed (${message}).`;
}
