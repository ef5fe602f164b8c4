// createContextManager: the one factory for context-window truth and compression. It gives the turn runner a
// prepareMessages hook (budget gate, compression at the threshold, eviction into a session summary), learns a
// per-model token calibration from server counts, warns once when the server seems to cut the prompt, and
// offers compressNow() for the "Compress Context Now" command and status() for the context meter.
import type { ChatMessage, ToolDefinition } from '../messages';
import { compress, type CompressionReason, type CompressionReport } from './compressor';
import type { CompressionModel } from './modelPass';
import { CompressionScope } from './scope';
import { HistoryView, fingerprint, type ContextState } from './view';
import { budgetError } from '../window/budgetError';
import { TokenCalibration, calibrationKey } from '../window/calibration';
import { TokenMeter, type PromptMeasure } from '../window/meter';
import { parseContextSettings, type ContextSettings } from '../window/contextSettings';
import { CompressionBudget } from './compressionBudget';
import { splitRequest } from '../prompt/requestLayout';
import { RoundGrowth } from './roundGrowth';
import { AnswerReserve, compressionTrigger } from './answerReserve';
import { WorkingWindow, windowEvidenceKey } from '../window/workingWindow';
import type { ContextManager, ContextManagerOptions, ContextStatus } from './contextManagerApi';

export function createContextManager(options: ContextManagerOptions): ContextManager {
  return new DefaultContextManager(options);
}

const EMPTY_MEASURE: PromptMeasure = { systemTokens: 0, toolDefinitionTokens: 0, messagesTokens: 0, raw: 0, total: 0 };

class DefaultContextManager implements ContextManager {
  readonly hooks: ContextManager['hooks'];
  private readonly settings: ContextSettings;
  private readonly meter = new TokenMeter();
  private readonly view: HistoryView;
  private readonly calibration: TokenCalibration;
  private readonly windows: WorkingWindow;
  private readonly budget: CompressionBudget | undefined;
  private readonly compressionModel: CompressionModel | undefined;
  private lastMeasure: PromptMeasure = EMPTY_MEASURE;
  private lastSent: { raw: number; expected: number } | undefined;
  /** A count that may be a cut prompt or a tokenizer that counts differently: decided by the next count. */
  private heldSample: { raw: number; reported: number } | undefined;
  /** The history at the last compression (length and last message): no second one until something new arrived. */
  private compressedAt: { length: number; last: string } | undefined;
  /** The window shrank: compress before the next request even if nothing new arrived. */
  private compressNext = false;
  private compressions = 0;
  private readonly growth = new RoundGrowth();
  private readonly reserve: AnswerReserve;

  constructor(private readonly options: ContextManagerOptions) {
    this.settings = parseContextSettings(options.settings ?? {});
    const s = this.settings;
    this.reserve = new AnswerReserve(s.minAnswerTokens);
    this.view = new HistoryView(options.initialState);
    this.calibration = new TokenCalibration({
      key: calibrationKey(options.provider.id, options.model),
      alpha: s.calibrationAlpha,
      ...(options.calibrationStore && { store: options.calibrationStore }),
      onStoreError: (m) => options.onWarning?.(m),
    });
    this.windows = new WorkingWindow({
      provider: options.provider,
      model: options.model,
      ...(options.contextSize !== undefined && { contextSize: options.contextSize }),
      ...(options.configuredWindow !== undefined && { configuredWindow: options.configuredWindow }),
      ...(options.window !== undefined && { window: options.window }),
      ...(options.calibrationStore && { store: options.calibrationStore }),
      ...(options.sessionId && { evidenceKey: windowEvidenceKey(options.sessionId, options.provider, options.model) }),
      detector: { hardRatio: s.truncationRatio, softRatio: s.truncationSuspectRatio, minTokens: s.truncationMinTokens },
      ...(options.onWarning && { onWarning: options.onWarning }),
      onChange: (change) => {
        this.compressNext = true;
        options.onWindowChange?.(change);
      },
    });
    this.compressionModel =
      options.compressionModel === null || !s.llmCompression
        ? undefined
        : (options.compressionModel ?? {
            provider: options.provider,
            model: options.model,
            ...(options.contextSize !== undefined && { contextSize: options.contextSize }),
          });
    if (options.callBudget) {
      this.budget = new CompressionBudget({
        share: s.compressionCallShare,
        minPassCalls: 2,
        retryGrowth: s.compressionRetryGrowth,
        maxFailures: 2,
        maxIterations: s.maxCompressionIterations,
      });
    }
    this.hooks = { prepareMessages: (messages, signal, tools) => this.prepareMessages(messages, signal, tools) };
  }

  startTurn(): void {
    this.budget?.startTurn();
  }

  async windowTokens(signal: AbortSignal): Promise<number> {
    return (await this.windows.get(signal)).tokens;
  }

  async prepareMessages(messages: ChatMessage[], signal: AbortSignal, sentTools?: readonly ToolDefinition[]): Promise<ChatMessage[]> {
    const window = (await this.windows.get(signal)).tokens;
    await this.calibration.load();
    this.budget?.recordWork();
    const { system, history } = splitRequest(messages);
    this.view.reconcile(history);
    // Exactly the tools this request carries: a request without tools must not be measured with them.
    const tools = sentTools ?? this.options.tools?.() ?? [];
    const s = this.settings;
    const summaryCap = Math.floor(window * s.summaryMaxShare);
    const build = (cap = summaryCap) => this.view.build(system, history, cap);
    let prepared = build();
    let measure = this.meter.measure(prepared, tools, this.calibration.factor);
    this.growth.observe(measure.total);
    this.reserve.observeLatestReply(history, (m) => Math.ceil(this.meter.message(m) * this.calibration.factor));
    const fresh =
      this.compressNext || !this.compressedAt || this.compressedAt.length !== history.length || this.compressedAt.last !== lastFingerprint(history);
    let compressed = false;

    if ((measure.total > this.trigger(window) || (this.compressNext && measure.total > window * s.compressTo)) && fresh) {
      await this.runCompression('threshold', system, history, tools, window, signal);
      compressed = true;
      prepared = build();
      measure = this.meter.measure(prepared, tools, this.calibration.factor);
    }
    this.compressNext = false;
    const minAnswer = this.reserve.tokens(window);
    if (window - measure.total < minAnswer) {
      if (!compressed && fresh) {
        await this.runCompression('budget', system, history, tools, window, signal);
        prepared = build();
        measure = this.meter.measure(prepared, tools, this.calibration.factor);
      }
      // Before stopping the turn, the session summary gives way (its oldest lines first; the files list stays):
      // in a small window a shorter summary is better than no answer.
      let cap = summaryCap;
      while (window - measure.total < minAnswer && cap > 0 && !this.view.summary.empty) {
        const deficit = measure.total - (window - minAnswer);
        cap = Math.max(0, cap - Math.ceil(deficit / this.calibration.factor) - 8);
        prepared = build(cap);
        measure = this.meter.measure(prepared, tools, this.calibration.factor);
      }
      this.lastMeasure = measure;
      if (window - measure.total < minAnswer) throw budgetError(measure, window, this.calibration.factor, minAnswer, s.protectedPairs);
    }
    this.lastMeasure = measure;
    this.lastSent = { raw: measure.raw, expected: measure.total };
    this.growth.sent(measure.total);
    return prepared;
  }

  recordUsage(usage: { promptTokens: number; completionTokens?: number }): void {
    if (usage.completionTokens && usage.completionTokens > 0) this.reserve.observe(usage.completionTokens);
    const sent = this.lastSent;
    this.lastSent = undefined; // one count per prepared request; retries and other calls do not re-use it
    if (!sent || !(usage.promptTokens > 0)) return; // a missing count (some servers omit it on cached prompts) is no evidence
    const { verdict } = this.windows.observe({ expected: sent.expected, reported: usage.promptTokens }, this.options.provider.id);
    const held = this.heldSample;
    this.heldSample = undefined;
    if (verdict.kind === 'suspect') {
      this.heldSample = { raw: sent.raw, reported: usage.promptTokens };
      return;
    }
    if (verdict.kind === 'cut') return; // a cut prompt says nothing about the tokenizer
    if (held) this.calibration.observe(held.raw, held.reported);
    this.calibration.observe(sent.raw, usage.promptTokens);
  }

  async compressNow(messages: ChatMessage[], signal: AbortSignal): Promise<CompressionReport> {
    const window = (await this.windows.get(signal)).tokens;
    await this.calibration.load();
    const { system, history } = splitRequest(messages);
    this.view.reconcile(history);
    const tools = this.options.tools?.() ?? [];
    const report = await this.runCompression('manual', system, history, tools, window, signal);
    this.lastMeasure = this.meter.measure(this.view.build(system, history, Math.floor(window * this.settings.summaryMaxShare)), tools, this.calibration.factor);
    this.growth.sent(this.lastMeasure.total);
    return report;
  }

  status(): ContextStatus {
    const w = this.windows.known() ?? { tokens: this.options.configuredWindow ?? this.options.contextSize ?? 0, source: 'configured' as const };
    const m = this.lastMeasure;
    const summary = this.view.summary.render(Math.floor(w.tokens * this.settings.summaryMaxShare));
    return {
      window: w.tokens,
      windowSource: w.source,
      ...(w.note && { windowNote: w.note }),
      used: m.total,
      systemTokens: m.systemTokens,
      toolDefinitionTokens: m.toolDefinitionTokens,
      messagesTokens: m.messagesTokens,
      free: Math.max(0, w.tokens - m.total),
      compressAtTokens: this.trigger(w.tokens),
      targetTokens: Math.floor(w.tokens * this.settings.compressTo),
      minAnswerTokens: this.reserve.tokens(w.tokens),
      calibrationFactor: this.calibration.factor,
      calibrationSamples: this.calibration.samples,
      compressions: this.compressions,
      evictedMessages: this.view.evictedThrough,
      ...(summary && { summary }),
      compressionBudget: this.budget?.snapshot() ?? { used: 0, limit: this.settings.maxCompressionIterations },
    };
  }

  state(): ContextState {
    return this.view.toState();
  }

  originalOf(message: ChatMessage): ChatMessage | undefined {
    return this.view.originalOf(message);
  }

  refreshWindow(): void {
    this.windows.refresh();
  }

  private async runCompression(
    reason: CompressionReason,
    system: ChatMessage | undefined,
    history: readonly ChatMessage[],
    tools: readonly ToolDefinition[],
    window: number,
    signal: AbortSignal,
  ): Promise<CompressionReport> {
    const s = this.settings;
    const scope = new CompressionScope({ system, history, tools, view: this.view, settings: s, meter: this.meter, factor: this.calibration.factor, window });
    const historyTokens = this.meter.messages(history);
    // "Compress Context Now" is the user's call; only the automatic passes are held to the budget.
    const permit = this.budget && reason !== 'manual' ? this.budget.permit(historyTokens, window) : { calls: s.maxCompressionIterations };
    const report = await compress(
      scope,
      reason,
      {
        ...(this.compressionModel && permit.calls > 0 && { model: this.compressionModel }),
        maxIterations: permit.calls,
        temperature: s.compressionTemperature,
        ...(this.options.onStatus && { onStatus: this.options.onStatus }),
        ...(this.options.summaries && { summaries: this.options.summaries }),
        headroom: { trigger: Math.min(this.trigger(window), window - this.reserve.tokens(window)), roundTokens: this.growth.perRound() },
        onUsage: (raw, reported) => {
          // The compression agent's counts feed calibration only when they look whole.
          if (!this.windows.isCut({ expected: Math.ceil(raw * this.calibration.factor), reported })) this.calibration.observe(raw, reported);
        },
      },
      signal,
    );
    const calls = report.llm?.iterations ?? 0;
    if (this.budget && report.llm) {
      const llmStep = report.steps.find((step) => step.method === 'llm');
      const { disabledNow } = this.budget.recordPass(
        calls,
        { targetMet: !!llmStep && llmStep.tokensAfter <= report.targetTokens, failed: report.llm.failure !== undefined && report.llm.compressed === 0 },
        historyTokens,
      );
      if (disabledNow) {
        this.options.onWarning?.(
          'The model twice did not carry out the compression pass (it has to reply with usable summaries as JSON). From now on this session compresses without it: tool results become short digests, and the oldest rounds move into a session summary.',
        );
      }
    }
    report.modelCalls = calls;
    report.budget = this.budget?.snapshot() ?? { used: calls, limit: permit.calls };
    if (this.compressionModel && permit.skipped) report.skipped = permit.skipped;
    this.compressedAt = { length: history.length, last: lastFingerprint(history) };
    this.compressions++;
    if (report.method !== 'none' || reason === 'manual') this.options.onCompression?.(report);
    return report;
  }

  /** Where compression starts (answerReserve.ts). Past `window - reserve` the budget gate compresses anyway. */
  private trigger(window: number): number {
    return compressionTrigger(window, this.settings, this.reserve.tokens(window));
  }
}

function lastFingerprint(history: readonly ChatMessage[]): string {
  const last = history[history.length - 1];
  return last ? fingerprint(last) : '';
}
