// One compression run's working set: the history, its view, its layout and the budget numbers, with the
// rules for what may be compressed. The LLM pass, the fallback and eviction all work through this.
import type { ChatMessage, ToolDefinition } from '../messages';
import type { TokenMeter } from '../window/meter';
import type { ContextSettings } from '../window/contextSettings';
import { computeLayout, type Layout } from './compressionUnits';
import type { Replacement, HistoryView, ReplacementMethod } from './view';

export interface ScopeInput {
  system: ChatMessage | undefined;
  history: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  view: HistoryView;
  settings: ContextSettings;
  meter: TokenMeter;
  /** Calibration factor for the model. */
  factor: number;
  window: number;
}

export class CompressionScope {
  readonly system: ChatMessage | undefined;
  readonly history: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly view: HistoryView;
  readonly settings: ContextSettings;
  readonly meter: TokenMeter;
  readonly factor: number;
  readonly window: number;
  readonly layout: Layout;
  /** The size this run aims at: a share of the window, lowered by headroomTarget() in a small window. */
  target: number;
  /** The fixed target leaves too little room for the next rounds: the deep step runs even if its estimate falls short. */
  deepForHeadroom = false;
  /** …and stops at the newest round holding a compressed copy (headroom.ts decided it costs little enough). */
  deepKeepsDigest = false;
  readonly summaryMaxTokens: number;
  /** Everything replaced during this run, by history index (a later replacement of the same index wins). */
  readonly replaced = new Map<number, Replacement>();
  readonly evicted: number[] = [];
  private readonly never: Set<string>;
  private cachedTotal: number | undefined;

  constructor(input: ScopeInput) {
    this.system = input.system;
    this.history = input.history;
    this.tools = input.tools;
    this.view = input.view;
    this.settings = input.settings;
    this.meter = input.meter;
    this.factor = input.factor;
    this.window = input.window;
    this.layout = computeLayout(input.history, input.settings.protectedPairs, input.settings.fallbackKeepRounds);
    this.target = Math.floor(input.window * input.settings.compressTo);
    this.summaryMaxTokens = Math.floor(input.window * input.settings.summaryMaxShare);
    this.never = new Set(input.settings.neverCompressTools);
  }

  /** What the request would cost now (calibrated), with the view as it stands. */
  total(): number {
    this.cachedTotal ??= this.meter.measure(this.messages(), this.tools, this.factor).total;
    return this.cachedTotal;
  }

  messages(): ChatMessage[] {
    return this.view.build(this.system, this.history, this.summaryMaxTokens);
  }

  overTarget(): boolean {
    return this.total() > this.target;
  }

  current(index: number): ChatMessage {
    return this.view.current(this.history, index);
  }

  /** Calibrated tokens of one message as it stands in the view. */
  tokensOf(index: number): number {
    return Math.ceil(this.meter.message(this.current(index)) * this.factor);
  }

  /** May this message be compressed now? (In the view, not yet compressed, outside what is protected.) */
  canCompress(index: number): boolean {
    const m = this.history[index];
    if (!m || !this.view.inView(this.history, index) || this.view.isCompressed(this.history, index)) return false;
    if (m.role === 'tool') return index < this.layout.freshStart && !this.never.has(m.toolName ?? '');
    if (m.role === 'user' || m.role === 'assistant') return index < this.layout.protectedStart;
    return false;
  }

  isNeverCompressed(index: number): boolean {
    return this.never.has(this.history[index]?.toolName ?? '');
  }

  /** Messages that may be compressed, oldest first; `minTokens` leaves out those too small to be worth a call. */
  candidates(minTokens = 0): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.history.length; i++) if (this.canCompress(i) && (minTokens <= 0 || this.tokensOf(i) >= minTokens)) out.push(i);
    return out;
  }

  replace(index: number, compressed: ChatMessage, method: ReplacementMethod): Replacement {
    const r = this.view.replace(this.history, index, compressed, method);
    this.replaced.set(index, r);
    this.cachedTotal = undefined;
    return r;
  }

  evictThrough(end: number): void {
    for (let i = this.view.evictedThrough; i < end; i++) this.evicted.push(i);
    this.view.evictThrough(this.history, end);
    this.cachedTotal = undefined;
  }

  /** The same run on a copy of the view: a step tried on it changes nothing here. */
  trial(): CompressionScope {
    const { system, history, tools, settings, meter, factor, window } = this;
    return new CompressionScope({ system, history, tools, view: this.view.clone(), settings, meter, factor, window });
  }

  /**
   * This run's target and how deep it may go (headroom.ts): the fixed target lowered to leave room for the next
   * rounds, or, when the deep step runs, what it can reach — above the fixed target in a window too small for that
   * (system prompt, tools and the latest round alone exceed it): a run that went as deep as it may met its target.
   */
  aimAt(tokens: number, deep: boolean, keepDigest: boolean): void {
    this.target = deep ? tokens : Math.min(this.target, tokens);
    this.deepForHeadroom = deep;
    this.deepKeepsDigest = deep && keepDigest;
  }

  /** Call after changing the summary. */
  invalidate(): void {
    this.cachedTotal = undefined;
  }
}
