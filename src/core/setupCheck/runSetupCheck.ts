// The setup check: a handful of short requests to the configured server and model, run only when the user asks,
// each step's finding kept in one report. What it sends is said first (plan.ts).
import { llamaCppAdvice } from './llamaCppAdvice';
import type { ChatProvider, ServerStatus } from '../provider';
import type { Clock } from '../ports';
import { chooseContextWindow, resolveContextWindow } from '../window/window';
import type { ToolProtocolSetting } from '../toolProtocol/protocolSetting';
import { formatCount } from '../../shared/format';
import { checkEmbedding, type EmbeddingModels } from './embeddingCheck';
import { ObservedProvider, type CallRecord } from './observedCall';
import { inCacheSlot } from '../cacheSlot';
import { overallVerdict } from './overall';
import { skipped, type SetupReport } from './report';
import { checkServer, serverLabel } from './serverCheck';
import { cacheFinding, CACHE_PREFIX_TOKENS, runSpeedProbes, speedFinding } from './speedProbe';
import { runToolProbe, type ProbeResult } from './toolProbe';
import { toolsFinding } from './toolsFinding';
import { windowFinding } from './windowCheck';
import { errorMessage } from '../../shared/format';

export interface SetupCheckInput {
  provider: ChatProvider;
  /** The chosen model; empty or absent: the first one the server lists. */
  model?: string;
  /** The context size setting (sent as Ollama's num_ctx, the configured window elsewhere). */
  contextSize?: number;
  toolProtocol: ToolProtocolSetting;
  embeddingModels: EmbeddingModels;
  /** A smaller window an earlier session found for this server and the checked model (the working window's memory). */
  recall?: (model: string) => Promise<{ tokens: number; base: number } | undefined>;
  clock: Clock;
  signal: AbortSignal;
  /** Each step as it starts ("Asking the server…"). */
  onProgress?: (step: string) => void;
}

/** The report, and what the working window's memory should hold afterwards. */
export interface SetupCheckResult {
  report: SetupReport;
  remember?: { tokens: number; base: number } | 'forget';
}

export async function runSetupCheck(input: SetupCheckInput): Promise<SetupCheckResult> {
  const { provider, signal, clock } = input;
  const progress = input.onProgress ?? (() => undefined);
  const checkedAt = clock.now();
  progress(`Asking ${provider.baseUrl} for its models…`);
  const server = await checkServer(provider, input.model?.trim() || undefined, signal);
  const model = server.model ?? input.model?.trim() ?? '';
  const head = { version: 1 as const, checkedAt, provider: provider.id, baseUrl: provider.baseUrl, model, ...(server.modelFromList && { modelFromList: true }) };
  const notChecked = (why: string) => skipped(`Not checked: ${why}.`);
  if (!server.model) {
    const why = server.finding.reachable ? 'the model is not on the server' : 'the server did not answer';
    const findings = {
      server: server.finding,
      window: notChecked(why),
      tools: { ...notChecked(why), serverSays: 'unknown' as const, setting: input.toolProtocol },
      speed: notChecked(why),
      cache: { ...notChecked(why), state: 'unknown' as const, evidence: 'none' as const },
      embedding: { ...notChecked(why), models: [] },
    };
    return { report: { ...head, ...findings, overall: overallVerdict(findings, model, provider.id) } };
  }

  progress(`Asking about ${model}…`);
  const label = serverLabel(server.status?.kind, provider.id);
  const info = await provider.modelInfo(model, signal).catch((err: unknown) => {
    if (signal.aborted) throw err;
    return undefined;
  });
  const contextSize = input.contextSize && input.contextSize > 0 ? input.contextSize : undefined;
  // The window a session starts from, as src/core/window/window.ts decides it (from the answer just read).
  const windowOptions = { ...(contextSize && { contextSize, configured: contextSize }) };
  const base = info
    ? chooseContextWindow({ contextSizeApi: provider.capabilities.contextSizeApi, ...(contextSize && { requestedContextSize: contextSize, configured: contextSize }), info })
    : await resolveContextWindow(provider, model, windowOptions, signal);
  // Loaded before the first chat request? (Then there is no cold load to time.) The server check asked about this model.
  const before = server.status;

  // Tools first: the first chat request also times the cold load.
  // The probes are side work: on a llama.cpp server with slots they leave the chat's cached prompt alone.
  const observed = new ObservedProvider(inCacheSlot(provider, 'side'), clock);
  const caps = info?.capabilities;
  const serverSays = caps && caps.length > 0 ? (caps.includes('tools') ? 'yes' : 'no') : 'unknown';
  let native: ProbeResult | undefined;
  let text: ProbeResult | undefined;
  let firstRecord: CallRecord | undefined;
  const probeOptions = { model, signal, ...(contextSize && { contextSize }) };
  if (serverSays !== 'no') {
    progress(`Tool probe: one tiny task with one tool, native tool calling…`);
    native = await runToolProbe(observed, 'native', probeOptions);
    firstRecord = native.record;
  }
  if (native?.outcome !== 'native' && native?.outcome !== 'error' && (native?.outcome !== 'bad_call' || input.toolProtocol === 'xml')) {
    progress(`Tool probe: the same task with text-based tool calls…`);
    text = await runToolProbe(observed, 'xml', probeOptions);
    firstRecord ??= text.record;
  }
  const tools = toolsFinding({ providerId: provider.id, ...(server.status && { kind: server.status.kind }), model, serverSays, setting: input.toolProtocol, ...(native && { native }), ...(text && { text }) });

  const answered = (native ?? text)?.outcome !== 'error';
  const after = answered ? await statusOf(provider, model, signal) : undefined;
  const remembered = await input.recall?.(model);
  const running = provider.id === 'ollama' ? after?.loadedContextLength : (after?.loadedContextLength ?? info?.loadedContextLength);
  const window = windowFinding({
    providerId: provider.id,
    label,
    model,
    base,
    ...(info?.contextLength !== undefined && { modelMax: info.contextLength }),
    ...(contextSize && { configured: contextSize }),
    ...(running !== undefined && { running }),
    ...(remembered && { remembered }),
  });
  const { remember, ...windowReport } = window;

  let speed: SetupReport['speed'];
  let cache: SetupReport['cache'];
  if (answered) {
    progress(`Speed and prompt cache: two short requests sharing a ~${formatCount(CACHE_PREFIX_TOKENS)}-token start…`);
    try {
      // A prefix that leaves room in a small window.
      const prefixTokens = Math.max(200, Math.min(CACHE_PREFIX_TOKENS, Math.floor((window.budget ?? base.tokens) / 3)));
      const probes = await runSpeedProbes(observed, { ...probeOptions, prefixTokens });
      const alreadyLoaded = before?.loaded;
      speed = speedFinding({ ...(alreadyLoaded !== undefined && { alreadyLoaded }), ...(firstRecord && { firstRecord }), first: probes.first });
      cache = cacheFinding(probes, server.status?.kind);
      if (server.status?.kind === 'llamacpp') cache = { ...cache, details: [...cache.details, ...llamaCppAdvice(server.status, model)] };
      if (speed.promptTokensPerSecond !== undefined) provider.notePromptSpeed?.(model, speed.promptTokensPerSecond);
    } catch (err) {
      if (signal.aborted) throw err;
      const why = errorMessage(err);
      speed = { verdict: 'failed', summary: `The speed requests failed: ${why}`, details: [], reason: 'the model does not answer plain requests' };
      cache = { ...skipped('Not checked: the speed requests failed.'), state: 'unknown', evidence: 'none' };
    }
  } else {
    speed = skipped('Not checked: the model did not answer the tool probe.');
    cache = { ...skipped('Not checked: the model did not answer the tool probe.'), state: 'unknown', evidence: 'none' };
  }

  progress('Embedding model…');
  const embedding = await checkEmbedding(provider, input.embeddingModels, server.finding.models, signal);
  const findings = { server: server.finding, window: windowReport, tools, speed, cache, embedding };
  return { report: { ...head, ...findings, overall: overallVerdict(findings, model, provider.id) }, ...(remember && { remember }) };
}

async function statusOf(provider: ChatProvider, model: string, signal: AbortSignal): Promise<ServerStatus | undefined> {
  if (!provider.serverStatus) return undefined;
  try {
    return await provider.serverStatus(model, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    return undefined;
  }
}
