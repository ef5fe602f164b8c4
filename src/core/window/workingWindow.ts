// The window we budget against, kept true while the session runs: first what the server and the settings
// say, then corrected by what the server shows it really runs — Ollama's `/api/ps` after a request, or a
// ceiling in its prompt counts. A correction is said once, plainly, and remembered per server and model so
// the next session starts right.
import type { ChatProvider } from '../provider';
import type { KeyValuePort } from './calibration';
import { formatCount } from '../../shared/format';
import { WindowDetector, type PromptSample, type SampleVerdict } from './windowDetector';
import { chooseContextWindow, resolveContextWindow, type ContextWindow } from './window';
import { errorMessage } from '../../shared/format';

export interface WorkingWindowOptions {
  provider: ChatProvider;
  model: string;
  contextSize?: number;
  configuredWindow?: number;
  window?: number | ContextWindow | ((signal: AbortSignal) => Promise<ContextWindow>);
  store?: KeyValuePort;
  /**
   * Keeps the truncation detector's evidence under this key of the store (the session's id is part of it), so separate
   * runs of one session — `run --session` once per turn, an editor window reload — see the counts of the runs before.
   */
  evidenceKey?: string;
  detector: { hardRatio: number; softRatio: number; minTokens: number };
  /** Said once per session per kind of problem. */
  onWarning?: (message: string) => void;
  /** The window changed (for the event stream). */
  onChange?: (change: { window: number; previous: number; source: string; reason: string }) => void;
}

export interface Remembered {
  tokens: number;
  /** The window we would have used without the correction; a memory for another setting does not apply. */
  base: number;
}

export function rememberedWindowKey(provider: Pick<ChatProvider, 'id' | 'baseUrl'>, model: string): string {
  return `contextWindow:${provider.id}:${provider.baseUrl}:${model}`;
}

/** The smaller window remembered for this server and model (a damaged entry is no memory). */
export async function readRememberedWindow(store: KeyValuePort, provider: Pick<ChatProvider, 'id' | 'baseUrl'>, model: string): Promise<Remembered | undefined> {
  try {
    const raw = await store.get(rememberedWindowKey(provider, model));
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Remembered>;
    return typeof parsed.tokens === 'number' && typeof parsed.base === 'number' && parsed.tokens > 0 ? { tokens: parsed.tokens, base: parsed.base } : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a window for this server and model; undefined forgets it (an empty object: the kv port has no delete). */
export async function writeRememberedWindow(store: KeyValuePort, provider: Pick<ChatProvider, 'id' | 'baseUrl'>, model: string, value: Remembered | undefined): Promise<void> {
  await store.set(rememberedWindowKey(provider, model), JSON.stringify(value ?? {}));
}

/** Where one session keeps the truncation evidence for one server and model. */
export function windowEvidenceKey(sessionId: string, provider: ChatProvider, model: string): string {
  return `windowEvidence:${sessionId}:${provider.id}:${provider.baseUrl}:${model}`;
}

export class WorkingWindow {
  private lookup: Promise<ContextWindow> | undefined;
  private base: ContextWindow | undefined;
  private current: ContextWindow | undefined;
  private readonly detector: WindowDetector;
  private runningCheck: Promise<void> | undefined;
  private runningChecked = false;
  private warnedCut = false;

  constructor(private readonly options: WorkingWindowOptions) {
    this.detector = new WindowDetector(options.detector);
  }

  /** The window as far as we know it now (undefined before the first lookup). */
  known(): ContextWindow | undefined {
    return this.current;
  }

  /** The window to budget the next request against. */
  async get(signal: AbortSignal): Promise<ContextWindow> {
    if (this.runningCheck) await this.runningCheck;
    this.lookup ??= this.lookUp(signal).then(
      (w) => (this.current = w),
      (err: unknown) => {
        this.lookup = undefined; // a cancelled lookup must not stick
        throw err;
      },
    );
    return this.lookup;
  }

  /** Look the window up again on the next call (the model was reloaded or changed). */
  refresh(): void {
    this.lookup = undefined;
    this.runningChecked = false;
    this.detector.reset();
    void this.saveEvidence();
  }

  /**
   * A main request's count. After the first one, asks the server what it really runs (where it says).
   * Returns the verdict, so the caller knows whether the count may feed calibration, and whether the window shrank.
   */
  observe(sample: PromptSample, providerId: string): { verdict: SampleVerdict; shrunk: boolean } {
    const verdict = this.detector.observe(sample);
    void this.saveEvidence();
    let shrunk = false;
    const window = this.current;
    if (window && verdict.kind === 'cut') {
      if (verdict.ceiling !== undefined && verdict.ceiling < window.tokens) {
        shrunk = this.shrink(verdict.ceiling, 'detected', `the server counted at most ${fmt(verdict.ceiling)} prompt tokens (${verdict.evidence})`);
      }
      if (!this.warnedCut) {
        this.warnedCut = true;
        this.options.onWarning?.(cutWarning(sample, window.tokens, providerId, shrunk ? verdict.ceiling : undefined, this.options.model));
      }
    } else if (window && verdict.kind === 'ok' && isCorrected(window) && sample.reported > window.tokens) {
      // The server counted more than the corrected window: it runs more now (the user fixed it).
      this.restore(`the server counted ${fmt(sample.reported)} prompt tokens, more than the ${fmt(window.tokens)} it ran before`);
    }
    if (!this.runningChecked && this.options.provider.runningContextLength) {
      this.runningChecked = true;
      this.runningCheck = this.checkRunning().finally(() => (this.runningCheck = undefined));
    }
    return { verdict, shrunk };
  }

  /** A count of another request (the compression agent): too short to trust, or fine. */
  isCut(sample: PromptSample): boolean {
    return this.detector.isCut(sample);
  }

  private async checkRunning(): Promise<void> {
    const o = this.options;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000); // never hold a turn up for long
    try {
      const running = await o.provider.runningContextLength!(o.model, controller.signal);
      const window = this.current;
      if (!running || !window) return;
      if (running < window.tokens) {
        const asked = o.contextSize ?? window.tokens;
        this.shrink(running, 'running', `the server reports it runs ${o.model} with ${fmt(running)} tokens of context`);
        o.onWarning?.(
          `${o.provider.id === 'ollama' ? 'Ollama' : 'The server'} runs ${o.model} with a ${fmt(running)}-token context, not the ${fmt(asked)} tokens asked for` +
            `${o.provider.id === 'ollama' ? ' with num_ctx' : ''}: longer prompts would be cut silently. Local Harness now budgets for ${fmt(running)} tokens and compresses to fit. ` +
            fixFor(o.provider.id, running, asked),
        );
      } else if (running > window.tokens && isCorrected(window)) {
        this.restore(`the server reports it runs ${o.model} with ${fmt(running)} tokens of context`);
      }
    } catch {
      // Asking is a courtesy; the counts still tell.
    } finally {
      clearTimeout(timer);
    }
  }

  private shrink(tokens: number, source: 'detected' | 'running', reason: string): boolean {
    const window = this.current;
    if (!window || tokens >= window.tokens) return false;
    const base = this.base?.tokens ?? window.tokens;
    this.current = { tokens, source, note: `The server runs ${fmt(tokens)} tokens, not ${fmt(base)}: ${reason}.` };
    this.lookup = Promise.resolve(this.current);
    this.options.onChange?.({ window: tokens, previous: window.tokens, source, reason });
    void this.remember({ tokens, base });
    return true;
  }

  private restore(reason: string): void {
    const window = this.current;
    if (!window || !this.base) return;
    this.current = this.base;
    this.lookup = Promise.resolve(this.base);
    this.detector.reset();
    this.options.onChange?.({ window: this.base.tokens, previous: window.tokens, source: this.base.source, reason });
    void this.remember(undefined);
  }

  private async lookUp(signal: AbortSignal): Promise<ContextWindow> {
    const base = await this.lookUpBase(signal);
    this.base = base;
    await this.loadEvidence();
    const remembered = await this.recall();
    if (remembered && remembered.base === base.tokens && remembered.tokens < base.tokens) {
      return {
        tokens: remembered.tokens,
        source: 'remembered',
        note: `An earlier session found that the server runs ${fmt(remembered.tokens)} tokens for ${this.options.model}, not ${fmt(base.tokens)}.`,
      };
    }
    if (base.source === 'default' && base.note) this.options.onWarning?.(base.note);
    return base;
  }

  private async lookUpBase(signal: AbortSignal): Promise<ContextWindow> {
    const o = this.options;
    if (typeof o.window === 'number') return { tokens: o.window, source: 'configured' };
    if (o.window && typeof o.window === 'object') return o.window;
    if (typeof o.window === 'function') {
      try {
        return await o.window(signal);
      } catch (err) {
        if (signal.aborted) throw err;
        const fallback = chooseContextWindow({ contextSizeApi: false, ...(o.configuredWindow !== undefined && { configured: o.configuredWindow }) });
        return { ...fallback, note: `Could not find the context window (${errorMessage(err)}). ${fallback.note ?? ''}`.trim() };
      }
    }
    return resolveContextWindow(
      o.provider,
      o.model,
      { ...(o.contextSize !== undefined && { contextSize: o.contextSize }), ...(o.configuredWindow !== undefined && { configured: o.configuredWindow }) },
      signal,
    );
  }

  private async loadEvidence(): Promise<void> {
    const { store, evidenceKey } = this.options;
    if (!store || !evidenceKey || this.evidenceLoaded) return;
    this.evidenceLoaded = true;
    try {
      const raw = await store.get(evidenceKey);
      if (raw) this.detector.restore(JSON.parse(raw));
    } catch {
      // No evidence is no harm: this run collects its own.
    }
  }
  private evidenceLoaded = false;

  private async saveEvidence(): Promise<void> {
    const { store, evidenceKey } = this.options;
    if (!store || !evidenceKey) return;
    try {
      await store.set(evidenceKey, JSON.stringify(this.detector.snapshot()));
    } catch {
      // Best effort, as remembering the window is.
    }
  }

  private async recall(): Promise<Remembered | undefined> {
    return this.options.store && readRememberedWindow(this.options.store, this.options.provider, this.options.model);
  }

  private async remember(value: Remembered | undefined): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    try {
      await writeRememberedWindow(store, this.options.provider, this.options.model, value);
    } catch {
      // Remembering is best effort; this session already budgets right.
    }
  }
}

function isCorrected(window: ContextWindow): boolean {
  return window.source === 'detected' || window.source === 'running' || window.source === 'remembered';
}

function cutWarning(sample: PromptSample, window: number, providerId: string, ceiling: number | undefined, model: string): string {
  const head =
    `The server counted ${fmt(sample.reported)} prompt tokens, but we sent about ${fmt(sample.expected)} (budgeting for a ${fmt(window)}-token window). ` +
    `It is probably cutting the prompt because it runs a smaller context than that, so the model may not see the start of the conversation or its instructions. `;
  const action = ceiling
    ? `It seems to run about ${fmt(ceiling)} tokens: Local Harness now budgets for ${fmt(ceiling)}, compresses the conversation to fit, and remembers this for ${model} on this server. `
    : '';
  return head + action + fixFor(providerId, ceiling ?? sample.reported, window);
}

export function fixFor(providerId: string, runs: number, asked: number): string {
  return providerId === 'ollama'
    ? `Fix: make Ollama run the window you ask for (num_ctx ${fmt(asked)}: set OLLAMA_CONTEXT_LENGTH=${asked} for \`ollama serve\`, or PARAMETER num_ctx ${asked} in a Modelfile), or set the context size (localharness.contextSize, CLI --num-ctx) to ${runs} so both sides agree.`
    : `Fix: reload the model with a larger context length (LM Studio: "Context Length" when loading; llama.cpp: --ctx-size; vLLM: --max-model-len), or set the context size (localharness.contextSize, CLI --num-ctx) to ${runs}, what the server really runs.`;
}

function fmt(n: number): string {
  return formatCount(n);
}
