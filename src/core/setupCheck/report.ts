// What the setup check found: one finding per question a user asks in the first hour with a local model (does
// the server answer, what window does it really run, does the model call tools, how fast is it, does the prompt
// cache work, is there an embedding model), each with a plain verdict and, where something is wrong, the fix.
import type { CallSyntaxId } from '../toolProtocol/callSyntaxes';
import type { ServerKind } from '../provider';
import type { ToolProtocol, ToolProtocolSetting } from '../toolProtocol/protocolSetting';

/** ok: fine. info: worth knowing, nothing to fix. limited: works, with a cost. failed: does not work. skipped: not checked. */
export type Verdict = 'ok' | 'info' | 'limited' | 'failed' | 'skipped';

/** The whole setup: ready, usable with limits (which), or not usable (why). */
export type OverallVerdict = 'ready' | 'limited' | 'unusable';

export interface Finding {
  verdict: Verdict;
  /** One line: what was found, in plain words. */
  summary: string;
  /** Supporting facts, one per line. */
  details: string[];
  /** What to do about it, when something is wrong. */
  fix?: string;
  /** A few words for the overall verdict when this finding limits or breaks the setup ("tool calls as text"). */
  reason?: string;
}

export interface ServerFinding extends Finding {
  reachable: boolean;
  kind?: ServerKind;
  version?: string;
  /** The models the server lists (at most MAX_LISTED). */
  models: string[];
  /** The chosen model is among them (undefined: the server did not list its models). */
  modelListed?: boolean;
  /** Listed names closest to a model the server does not have. */
  closest?: string[];
}

export interface WindowFinding extends Finding {
  /** The model's maximum context, as the server reports it. */
  modelMax?: number;
  /** What the settings (or Ollama's num_ctx default) ask for: the window a session budgets unless told otherwise. */
  asked?: number;
  /** The context size setting, when set. */
  configured?: number;
  /** What the server runs now (Ollama `/api/ps`, LM Studio loaded, llama.cpp `/props`, vLLM). */
  running?: number;
  /** The window Local Harness will budget against from the start of a session. */
  budget?: number;
}

/** What the model did with one tiny task and one tool. */
export type ProbeOutcome =
  /** Called the tool through the API's tool calling. */
  | 'native'
  /** Wrote the call as text (JSON, or `<tool>` markup) instead. */
  | 'text'
  /** Called something, but not the offered tool with usable arguments. */
  | 'bad_call'
  /** Answered without calling anything. */
  | 'none'
  /** The server refused tools for this model. */
  | 'rejected'
  /** The request failed. */
  | 'error';

export interface ToolsFinding extends Finding {
  /** What the server says about the model: it supports tools, it does not, or it does not say. */
  serverSays: 'yes' | 'no' | 'unknown';
  /** The probe with native tool calling (absent: not run). */
  nativeProbe?: ProbeOutcome;
  /** The probe with text-based tool calls (`<tool>` blocks), run when the native one did not call the tool. */
  textProbe?: ProbeOutcome;
  /** The protocol setting (auto, native, xml). */
  setting: ToolProtocolSetting;
  /** The protocol Local Harness will use for this model. */
  protocol?: ToolProtocol;
  /**
   * The syntax the model printed its call in when it wrote it as text (a family's own, e.g. `mistral`; `json`; the
   * text protocol's `text-protocol`), remembered per model (src/core/setupCheck/memory.ts).
   */
  callSyntax?: CallSyntaxId;
}

export interface SpeedFinding extends Finding {
  /** The model was loaded before the check began (so there was no cold load to time). */
  alreadyLoaded?: boolean;
  /** Time to load the model on the first request (server-reported, or the first request's wait). */
  coldLoadMs?: number;
  /** Time from the first request to its first streamed byte. */
  firstByteMs?: number;
  promptTokensPerSecond?: number;
  generatedTokensPerSecond?: number;
}

export interface CacheFinding extends Finding {
  state: 'works' | 'none' | 'unknown';
  /** reported: the server's cached-token count; timing: the second request read its prompt much faster. */
  evidence: 'reported' | 'timing' | 'none';
  /** The second request: its prompt tokens and how many came from the cache. */
  promptTokens?: number;
  cachedTokens?: number;
}

export interface EmbeddingFinding extends Finding {
  /** The configured embedding models and what each did. */
  models: Array<{ name: string; purposes: Array<'tools' | 'index'>; ok: boolean; dimensions?: number; error?: string }>;
  /** Listed models that look like embedding models, when none is configured. */
  candidates?: string[];
}

export interface SetupReport {
  version: 1;
  /** ms since the epoch */
  checkedAt: number;
  provider: 'ollama' | 'openai';
  baseUrl: string;
  model: string;
  /** No model was configured, so the first one the server lists was checked. */
  modelFromList?: boolean;
  server: ServerFinding;
  window: WindowFinding;
  tools: ToolsFinding;
  speed: SpeedFinding;
  cache: CacheFinding;
  embedding: EmbeddingFinding;
  overall: { verdict: OverallVerdict; summary: string; reasons: string[] };
}

export type FindingId = 'server' | 'window' | 'tools' | 'speed' | 'cache' | 'embedding';

export const FINDING_TITLES: Record<FindingId, string> = {
  server: 'Server and model',
  window: 'Context window',
  tools: 'Tool calling',
  speed: 'Speed',
  cache: 'Prompt cache',
  embedding: 'Embedding model',
};

/** The findings in the order they are shown. */
export function findingsOf(report: SetupReport): Array<{ id: FindingId; title: string; finding: Finding }> {
  return (Object.keys(FINDING_TITLES) as FindingId[]).map((id) => ({ id, title: FINDING_TITLES[id], finding: report[id] }));
}

export const OVERALL_LABELS: Record<OverallVerdict, string> = {
  ready: 'Ready',
  limited: 'Usable with limits',
  unusable: 'Not usable',
};

export function skipped(summary: string): Finding {
  return { verdict: 'skipped', summary, details: [] };
}
