// Speed and the prompt cache, measured on two short requests that share a ~1,000-token prefix and differ only in
// their last line: the first is read in full (prompt tokens/s), the second should be read from the cache. The
// server's own counts decide where it reports them (cached tokens, Ollama/llama.cpp durations); wall-clock time
// is the fallback and is said to be one.
import { toChatRequest, type ServerKind } from '../provider';
import { capitalise, formatCount } from '../../shared/format';
import type { CallRecord, ObservedProvider } from './observedCall';
import type { CacheFinding, SpeedFinding } from './report';
import { standaloneRequest } from '../prompt/requestLayout';

/** Long enough that reading it costs measurable time on any machine, short enough for a 2,048-token window. */
export const CACHE_PREFIX_TOKENS = 1000;
const REPLY_MAX_TOKENS = 120;

export interface SpeedProbes {
  first: CallRecord;
  second: CallRecord;
}

/** A fixed, dull text of about `tokens` tokens (≈ 4 characters each): the shared start of both requests. */
export function cachePrefix(tokens: number = CACHE_PREFIX_TOKENS): string {
  const lines = ['You are helping to check a model server. Below is a reference list; use it only if asked.'];
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
  for (let i = 1; lines.join('\n').length < tokens * 4; i++) {
    lines.push(`Entry ${i}: ${words[i % words.length]} ${words[(i * 5) % words.length]} ${words[(i * 7) % words.length]}, value ${(i * 37) % 101}.`);
  }
  return lines.join('\n');
}

export const SPEED_QUESTIONS = [
  'Count from one to twenty in words, separated by spaces. Reply with nothing else.',
  'Write the first ten letters of the alphabet, separated by spaces. Reply with nothing else.',
] as const;

export async function runSpeedProbes(
  provider: ObservedProvider,
  options: { model: string; contextSize?: number; prefixTokens?: number; signal: AbortSignal },
): Promise<SpeedProbes> {
  const prefix = cachePrefix(options.prefixTokens);
  const records: CallRecord[] = [];
  for (const question of SPEED_QUESTIONS) {
    const messages = standaloneRequest(prefix, question);
    const request = toChatRequest(
      {
        model: options.model,
        messages,
        signal: options.signal,
        think: false,
        temperature: 0,
        maxTokens: REPLY_MAX_TOKENS,
        ...(options.contextSize !== undefined && { contextSize: options.contextSize }),
      },
      [],
    );
    for await (const _delta of provider.chat(request)) {
      // Only the timing and the counts matter.
    }
    records.push(provider.last!);
  }
  return { first: records[0]!, second: records[1]! };
}

/** Prompt and generation speed from the first (uncached) request, the server's durations first. */
export function speedNumbers(first: CallRecord): { promptTokensPerSecond?: number; generatedTokensPerSecond?: number; measured: 'server' | 'clock' | 'mixed' | 'none' } {
  const usage = first.usage;
  const out: { promptTokensPerSecond?: number; generatedTokensPerSecond?: number } = {};
  let server = 0;
  let clock = 0;
  if (usage) {
    const read = usage.promptTokens - (usage.cachedEstimated ? 0 : (usage.cachedTokens ?? 0));
    const promptMs = usage.timings?.promptMs;
    if (promptMs !== undefined && promptMs > 0) {
      out.promptTokensPerSecond = rate(read, promptMs);
      server++;
    } else if (first.firstByteMs !== undefined && first.firstByteMs >= 20) {
      out.promptTokensPerSecond = rate(read, first.firstByteMs);
      clock++;
    }
    const genMs = usage.timings?.generationMs;
    const streamed = first.totalMs - (first.firstByteMs ?? first.totalMs);
    if (genMs !== undefined && genMs > 0 && usage.completionTokens > 0) {
      out.generatedTokensPerSecond = rate(usage.completionTokens, genMs);
      server++;
    } else if (streamed >= 20 && usage.completionTokens >= 5) {
      out.generatedTokensPerSecond = rate(usage.completionTokens, streamed);
      clock++;
    }
  }
  return { ...out, measured: clock + server === 0 ? 'none' : clock === 0 ? 'server' : server === 0 ? 'clock' : 'mixed' };
}

/** Did the second request reuse the first one's prefix? */
export function cacheFinding(probes: SpeedProbes, kind: ServerKind | undefined): CacheFinding {
  const { first, second } = probes;
  const usage = second.usage;
  const details: string[] = [];
  if (usage && usage.cachedTokens !== undefined && !usage.cachedEstimated) {
    const share = usage.promptTokens > 0 ? usage.cachedTokens / usage.promptTokens : 0;
    const counts = { promptTokens: usage.promptTokens, cachedTokens: usage.cachedTokens };
    details.push(`Second request: ${formatCount(usage.cachedTokens)} of ${formatCount(usage.promptTokens)} prompt tokens reused, as the server reports.`);
    if (share >= 0.5) {
      return { verdict: 'ok', state: 'works', evidence: 'reported', ...counts, summary: `Works: the server reused ${Math.round(share * 100)}% of a repeated prompt instead of reading it again.`, details };
    }
    if (usage.cachedTokens === 0) return none('reported', counts, kind, details, 'The server reports it reused nothing of a repeated ~1,000-token prompt');
    return { verdict: 'info', state: 'works', evidence: 'reported', ...counts, summary: `Partly: the server reused only ${Math.round(share * 100)}% of a repeated prompt.`, details };
  }
  // The server does not say: compare how long each took to read its prompt (its own durations where it reports them).
  const a = first.usage?.timings?.promptMs ?? first.firstByteMs;
  const b = second.usage?.timings?.promptMs ?? second.firstByteMs;
  const which = first.usage?.timings?.promptMs !== undefined ? 'prompt reading time, as the server reports it' : 'time to the first byte';
  details.push('The server does not report how many prompt tokens it reused.');
  if (a !== undefined && b !== undefined) {
    details.push(`Time to read the prompt: ${ms(a)} the first time, ${ms(b)} the second (${which}).`);
    if (b <= a * 0.5 && a - b >= 50) {
      return { verdict: 'ok', state: 'works', evidence: 'timing', summary: `Works, by timing: the repeated prompt was read ${(a / Math.max(1, b)).toFixed(1)}× faster the second time.`, details };
    }
    if (b >= a * 0.8 && a >= 300) return none('timing', {}, kind, details, 'The repeated prompt took as long the second time');
  }
  return { verdict: 'info', state: 'unknown', evidence: 'none', summary: 'Unknown: the server does not report reused prompt tokens, and the timing was too short to tell.', details };
}

function none(evidence: 'reported' | 'timing', counts: { promptTokens?: number; cachedTokens?: number }, kind: ServerKind | undefined, details: string[], what: string): CacheFinding {
  return {
    verdict: 'limited',
    state: 'none',
    evidence,
    ...counts,
    summary: `Not working: ${what.charAt(0).toLowerCase()}${what.slice(1)}; every request re-reads the whole conversation, so long tasks slow down as they grow.`,
    details,
    fix: cacheFix(kind),
    reason: 'no prompt cache',
  };
}

function cacheFix(kind: ServerKind | undefined): string {
  switch (kind) {
    case 'llamacpp':
      return 'llama-server reuses prompts unless started with --no-cache-prompt; start it without that flag (and with --cache-reuse 256 to reuse more).';
    case 'vllm':
      return 'Start vLLM with --enable-prefix-caching.';
    case 'ollama':
      return 'Ollama keeps one prompt per loaded model: another program using the same model between requests replaces it. Give Local Harness its own model, or update Ollama.';
    case 'lmstudio':
      return 'LM Studio keeps the last prompt of a loaded model: another app using the same model between requests replaces it.';
    default:
      return 'Turn on prompt (prefix) caching on the server.';
  }
}

export function speedFinding(input: { alreadyLoaded?: boolean; firstRecord?: CallRecord; first: CallRecord }): SpeedFinding {
  const { promptTokensPerSecond, generatedTokensPerSecond, measured } = speedNumbers(input.first);
  const details: string[] = [];
  const firstByteMs = input.firstRecord?.firstByteMs;
  let coldLoadMs: number | undefined;
  if (input.alreadyLoaded === false && input.firstRecord) coldLoadMs = input.firstRecord.usage?.timings?.loadMs ?? firstByteMs;
  const parts: string[] = [];
  if (coldLoadMs !== undefined) parts.push(`cold load ${ms(coldLoadMs)}`);
  else if (input.alreadyLoaded) parts.push('already loaded (no cold load to time)');
  else if (firstByteMs !== undefined) parts.push(`first reply after ${ms(firstByteMs)}`);
  if (promptTokensPerSecond !== undefined) parts.push(`reads about ${formatCount(Math.round(promptTokensPerSecond))} prompt tokens/s`);
  if (generatedTokensPerSecond !== undefined) parts.push(`writes about ${formatCount(Math.round(generatedTokensPerSecond))} tokens/s`);
  if (measured === 'none') parts.push('the replies came too quickly to time');
  else details.push(measured === 'server' ? 'Speeds as the server reports its own durations.' : 'Speeds timed here, from the wall clock (the server does not report its durations for every part).');
  if (firstByteMs !== undefined && coldLoadMs === undefined && !input.alreadyLoaded) details.push('The server does not say whether the model was loaded before the check.');
  const summary = `${capitalise(parts.join('; '))}.`;
  const slowWriting = generatedTokensPerSecond !== undefined && generatedTokensPerSecond < 3;
  const slowReading = promptTokensPerSecond !== undefined && promptTokensPerSecond < 30;
  const finding: SpeedFinding = {
    verdict: slowWriting || slowReading ? 'limited' : 'ok',
    summary,
    details,
    ...(input.alreadyLoaded !== undefined && { alreadyLoaded: input.alreadyLoaded }),
    ...(coldLoadMs !== undefined && { coldLoadMs }),
    ...(firstByteMs !== undefined && { firstByteMs }),
    ...(promptTokensPerSecond !== undefined && { promptTokensPerSecond }),
    ...(generatedTokensPerSecond !== undefined && { generatedTokensPerSecond }),
  };
  if (slowWriting || slowReading) {
    finding.reason = slowWriting ? 'very slow replies' : 'very slow prompt reading';
    finding.fix = 'A smaller model or a smaller quantisation (e.g. Q4_K_M), or a GPU, makes every step faster; a long first wait is the model loading (raise the first-byte timeout rather than giving up).';
  }
  if (coldLoadMs !== undefined && coldLoadMs > 60_000) details.push('Loading takes over a minute: keep the model loaded (Ollama keep_alive, localharness.keepAlive) so only the first request waits.');
  return finding;
}

function rate(tokens: number, msTaken: number): number {
  return Math.round((tokens * 1000 * 10) / msTaken) / 10;
}

export function ms(value: number): string {
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)} s`;
}
