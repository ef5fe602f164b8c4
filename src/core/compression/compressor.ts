// One compression run: indexed files' contents become their index summaries first (no model call), then the
// LLM pass, the deterministic fallback when that fails or is not enough, then eviction into the session summary
// when the request is still over the target. Returns a report for the event stream and for persistence (each
// compressed copy with the original it stands for).
import type { ChatMessage } from '../messages';
import type { IndexSummaryPort } from '../knowledge/types';
import { MIN_LISTED_TOKENS } from './summaryEdits';
import { runModelPass, type CompressionModel } from './modelPass';
import { evictOldest } from './eviction';
import { compressByRules } from './fallback';
import { compressByIndexSummaries } from './indexSummaries';
import type { CompressionScope } from './scope';
import { targetWithHeadroom, type Headroom } from './headroom';
import type { ReplacementMethod } from './view';

export type CompressionReason = 'threshold' | 'budget' | 'manual';
export type CompressionMethod = 'index' | 'llm' | 'fallback' | 'eviction';

export interface CompressionStep {
  method: CompressionMethod;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages this step compressed or evicted. */
  messages: number;
}

export interface CompressedMessage {
  /** Position in the session history (the original's position; persistence keeps it for the copy). */
  index: number;
  original: ChatMessage;
  compressed: ChatMessage;
  method: ReplacementMethod;
}

export interface CompressionReport {
  reason: CompressionReason;
  /** The strongest step that ran: eviction > fallback > llm > index ('none' when nothing could be done). */
  method: CompressionMethod | 'none';
  steps: CompressionStep[];
  tokensBefore: number;
  tokensAfter: number;
  targetTokens: number;
  window: number;
  targetMet: boolean;
  messagesAffected: number;
  compressed: CompressedMessage[];
  /** History indices that left the prompt in this run. */
  evicted: number[];
  /** The session summary after this run, when there is one. */
  summary?: { text: string; filesTouched: string[] };
  llm?: { iterations: number; compressed: number; failure?: string };
  /** Tool results replaced by their file's index summary, and the tokens that saved. */
  indexSummaries?: { messages: number; tokensSaved: number };
  /** Model calls the LLM pass spent, and the turn's compression budget (set by the context manager). */
  modelCalls?: number;
  budget?: { used: number; limit: number };
  /** Why the LLM pass did not run, when it was due but held back. */
  skipped?: string;
}

export interface CompressorOptions {
  /** Absent: no LLM pass (fallback and eviction only). */
  model?: CompressionModel;
  maxIterations: number;
  temperature: number;
  onStatus?: (message: string) => void;
  onUsage?: (raw: number, promptTokens: number) => void;
  /** Summaries of indexed files: a long read_file result becomes its file's summary before the LLM pass. */
  summaries?: IndexSummaryPort;
  /** Where compression starts and how fast the request grows: the target then leaves room for the next rounds. */
  headroom?: Headroom;
}

export async function compress(scope: CompressionScope, reason: CompressionReason, options: CompressorOptions, signal: AbortSignal): Promise<CompressionReport> {
  const tokensBefore = scope.total();
  if (options.headroom) {
    const aim = targetWithHeadroom(scope, options.headroom);
    scope.aimAt(aim.target, aim.deep, aim.keepDigest);
  }
  const steps: CompressionStep[] = [];
  const step = async (method: CompressionMethod, work: () => Promise<number> | number) => {
    const before = scope.total();
    const messages = await work();
    if (messages > 0 || method === 'llm') steps.push({ method, tokensBefore: before, tokensAfter: scope.total(), messages });
  };

  let indexSummaries: CompressionReport['indexSummaries'];
  if (options.summaries && scope.overTarget()) {
    await step('index', async () => {
      indexSummaries = await compressByIndexSummaries(scope, options.summaries!, signal);
      return indexSummaries.messages;
    });
    if (indexSummaries?.messages === 0) indexSummaries = undefined;
  }
  let llm: CompressionReport['llm'];
  if (options.model && options.maxIterations > 0 && scope.overTarget() && scope.candidates(MIN_LISTED_TOKENS).length > 0) {
    options.onStatus?.('Compressing the conversation with the model…');
    await step('llm', async () => {
      const run = await runModelPass(scope, options.model!, {
        maxIterations: options.maxIterations,
        temperature: options.temperature,
        signal,
        ...(options.onUsage && { onUsage: options.onUsage }),
      });
      llm = { iterations: run.iterations, compressed: run.compressed, ...(run.failure && { failure: run.failure }) };
      return run.compressed;
    });
    // The deep step's reach was measured with rule digests; the model's summaries stand in their place now.
    if (options.headroom && scope.deepForHeadroom && llm && llm.compressed > 0) {
      const aim = targetWithHeadroom(scope, options.headroom);
      scope.aimAt(aim.target, aim.deep, aim.keepDigest);
    }
  }
  if (scope.overTarget()) await step('fallback', () => compressByRules(scope));
  if (scope.overTarget()) await step('eviction', () => evictOldest(scope));

  const evicted = scope.evicted.filter((i) => !scope.view.inView(scope.history, i));
  const compressed = [...scope.replaced.values()]
    .filter((r) => scope.view.inView(scope.history, r.index))
    .sort((a, b) => a.index - b.index)
    .map((r) => ({ index: r.index, original: r.original, compressed: r.compressed, method: r.method }));
  const affected = new Set([...compressed.map((c) => c.index), ...evicted]);
  const methods = steps.filter((s) => s.messages > 0).map((s) => s.method);
  const report: CompressionReport = {
    reason,
    method: (['eviction', 'fallback', 'llm', 'index'] as const).find((m) => methods.includes(m)) ?? 'none',
    steps,
    tokensBefore,
    tokensAfter: scope.total(),
    targetTokens: scope.target,
    window: scope.window,
    targetMet: !scope.overTarget(),
    messagesAffected: affected.size,
    compressed,
    evicted,
    ...(llm && { llm }),
    ...(indexSummaries && { indexSummaries }),
  };
  if (!scope.view.summary.empty) {
    report.summary = { text: scope.view.summary.render(scope.summaryMaxTokens), filesTouched: scope.view.summary.filesTouched() };
  }
  return report;
}
