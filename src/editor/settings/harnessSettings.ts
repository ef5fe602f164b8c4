// The `localharness.*` settings as one typed object. Pure (no 'vscode' import) so it is unit-tested;
// callers pass a `get` (serverSettings.ts builds one that reads the server and approval keys from the user's own
// settings only). Read at the start of every turn, so changes apply without a reload.
import { isChatMode, type ChatMode } from '../../core/modes/chatMode';
import { DEFAULT_IMAGE_SETTINGS, parseImageSettings, type ImageSettings } from './imageSettings';
import type { ApprovalRule } from '../../core/approval/gate';
import { RISK_LEVELS, type RiskLevel } from '../../core/tools/tool';
import { parseRules } from '../approval/rules';
import { passthroughProblem } from '../../core/shell/commandEnv';
import { parseSimpleCommand } from '../../core/shell/simpleCommand';
import { parseTurnHooksSettings, type TurnHooksSettingsInput } from '../../core/resilience/turnHooksSettings';
import { parseContextSettings, type ContextSettingsInput } from '../../core/window/contextSettings';
import { homedir } from 'node:os';
import { DEFAULT_SANDBOX_SETTINGS, parseSandboxSettings, type SandboxSettings } from '../../core/sandbox/sandboxSettings';
import { parseSandboxLimits, type SandboxLimits } from '../../core/sandbox/sandboxLimits';
import { DEFAULT_THINKING_BUDGET } from '../../core/agent/thinkingBudget';
import type { ProviderSettings } from '../../providers/index';

export type ProviderKind = 'ollama' | 'openai';

export interface HarnessSettings {
  provider: ProviderKind;
  ollamaHost: string;
  openaiBaseUrl: string;
  /** Empty: use the first model the server lists. */
  model: string;
  /** 0: ask the server. */
  contextSize: number;
  keepAlive: string;
  think: boolean;
  /** Most thinking tokens per model call; 0: no budget. */
  thinkingBudget: number;
  maxRounds: number;
  firstByteTimeoutMs: number;
  autoApprove: RiskLevel[];
  rules: ApprovalRule[];
  /**
   * Extra path patterns (globs) that are always asked about, on top of the core's built-in list. From user
   * settings only (a repository can neither add nor remove any), see serverSettings.ts.
   */
  sensitivePatterns: string[];
  /** `localharness.sandbox.envPassthrough`: variables commands see on top of the allow-list (user settings only). */
  commandEnv: string[];
  /** Weak-model behaviour (tool protocol, nudges, retries): src/core/resilience/settings.ts. Validated. */
  agent: TurnHooksSettingsInput;
  /** Compression and budget knobs: src/core/window/settings.ts. Validated. */
  context: ContextSettingsInput;
  /** Models on the same server to continue with when the chosen one keeps failing. */
  fallbackModels: string[];
  /** Extra instructions for every turn (a prompt part). */
  instructions: string;
  /** The chat's mode when the panel's switch was not touched (localharness.mode). */
  mode: ChatMode;
  /** The user's skills folder (localharness.skills.userFolder; empty: ~/.localharness/skills). */
  skillsUserFolder: string;
  /** The tool pre-filter: at most this many tools per request when they would not fit. */
  maxOfferedTools: number;
  /** Embedding model on the same server for ranking tools; empty: keyword ranking. */
  embeddingModel: string;
  /** Files the agent's tools read join the indexing queue: not at all, asked about after the turn, or indexed without asking. */
  indexOnRead: IndexOnRead;
  /** A saved file that is in the index is indexed again in its mode. */
  reindexOnSave: boolean;
  /** Embedding model for the workspace index (`index.embeddingModel`, else `tools.embeddingModel`); empty: keyword retrieval. */
  indexEmbeddingModel: string;
  /** Planner/executor turns (issue 11). */
  orchestrator: OrchestratorSettings;
  /** How run_command is confined (`localharness.sandbox.*`; user settings only). */
  sandbox: SandboxSettings;
  /** `localharness.images.*`: vision override and the size pictures are shrunk to. */
  images: ImageSettings;
}

/** `localharness.orchestrator.*`: a planner model plans and answers, an executor model runs each step's tools. */
export interface OrchestratorSettings {
  /** Every turn is planned (needs `executorModel`); the "Run With Planner…" command plans one turn regardless. */
  enabled: boolean;
  /** Empty: the chat model. */
  plannerModel: string;
  /** Empty: no orchestration (there is no sensible default for the small model). */
  executorModel: string;
  /** Empty: the chat's server. Same provider kind as the chat. User settings only (serverSettings.ts). */
  plannerBaseUrl: string;
  executorBaseUrl: string;
  /** Empty: the chat's kind of server. Either may be the other kind (an Ollama planner, an LM Studio executor). */
  plannerProvider: '' | 'ollama' | 'openai';
  executorProvider: '' | 'ollama' | 'openai';
  maxSteps: number;
}

export type IndexOnRead = 'off' | 'ask' | 'auto';
export const INDEX_ON_READ: readonly IndexOnRead[] = ['off', 'ask', 'auto'];

export const DEFAULT_SETTINGS: HarnessSettings = {
  provider: 'ollama',
  ollamaHost: 'http://127.0.0.1:11434',
  openaiBaseUrl: 'http://127.0.0.1:1234/v1',
  model: '',
  contextSize: 0,
  keepAlive: '30m',
  think: true,
  thinkingBudget: DEFAULT_THINKING_BUDGET,
  maxRounds: 20,
  firstByteTimeoutMs: 300_000,
  autoApprove: ['read'],
  rules: [],
  sensitivePatterns: [],
  commandEnv: [],
  agent: {},
  context: {},
  fallbackModels: [],
  instructions: '',
  mode: 'agent',
  skillsUserFolder: '',
  maxOfferedTools: 15,
  embeddingModel: '',
  indexOnRead: 'ask',
  reindexOnSave: false,
  images: DEFAULT_IMAGE_SETTINGS,
  indexEmbeddingModel: '',
  orchestrator: { enabled: false, plannerModel: '', executorModel: '', plannerBaseUrl: '', executorBaseUrl: '', plannerProvider: '', executorProvider: '', maxSteps: 12 },
  sandbox: DEFAULT_SANDBOX_SETTINGS,
};

/** Reads one key below `localharness.` (e.g. "ollama.host"). */
export type SettingGetter = (key: string) => unknown;

export interface ParsedSettings {
  settings: HarnessSettings;
  /** One line per ignored value, for the log. */
  problems: string[];
}

export function parseSettings(get: SettingGetter): ParsedSettings {
  const problems: string[] = [];
  const d = DEFAULT_SETTINGS;
  const str = (key: string, fallback: string): string => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') {
      problems.push(`localharness.${key} should be a string; using "${fallback}".`);
      return fallback;
    }
    return v.trim();
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      problems.push(`localharness.${key} should be a number; using ${fallback}.`);
      return fallback;
    }
    const clamped = Math.min(max, Math.max(min, Math.round(v)));
    if (clamped !== v) problems.push(`localharness.${key} must be between ${min} and ${max}; using ${clamped}.`);
    return clamped;
  };

  const providerRaw = get('provider');
  let provider: ProviderKind = d.provider;
  if (providerRaw === 'ollama' || providerRaw === 'openai') provider = providerRaw;
  else if (providerRaw !== undefined && providerRaw !== null) {
    problems.push(`localharness.provider must be "ollama" or "openai"; using "${d.provider}".`);
  }

  const thinkRaw = get('think');
  const think = typeof thinkRaw === 'boolean' ? thinkRaw : d.think;
  if (thinkRaw !== undefined && thinkRaw !== null && typeof thinkRaw !== 'boolean') problems.push('localharness.think should be true or false; using true.');

  const autoRaw = get('approval.autoApprove');
  let autoApprove = [...d.autoApprove];
  if (Array.isArray(autoRaw)) {
    const valid = autoRaw.filter((r): r is RiskLevel => (RISK_LEVELS as readonly unknown[]).includes(r));
    if (valid.length !== autoRaw.length) problems.push(`localharness.approval.autoApprove: ignored unknown kinds (use ${RISK_LEVELS.join(', ')}).`);
    autoApprove = [...new Set(valid)];
  } else if (autoRaw !== undefined && autoRaw !== null) {
    problems.push('localharness.approval.autoApprove should be a list such as ["read"]; using ["read"].');
  }

  const agent = validatedObject('agent', get('agent'), parseTurnHooksSettings, problems);
  const context = validatedObject('context', get('context'), parseContextSettings, problems);
  const fallbackRaw = get('fallbackModels');
  let fallbackModels: string[] = [];
  if (Array.isArray(fallbackRaw)) fallbackModels = fallbackRaw.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim());
  else if (fallbackRaw !== undefined && fallbackRaw !== null) problems.push('localharness.fallbackModels should be a list of model names; ignored.');

  const sensitiveRaw = get('approval.sensitivePatterns');
  let sensitivePatterns: string[] = [];
  if (Array.isArray(sensitiveRaw)) {
    const valid = sensitiveRaw.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
    if (valid.length !== sensitiveRaw.length) problems.push('localharness.approval.sensitivePatterns: ignored entries that are not path patterns (non-empty strings).');
    sensitivePatterns = [...new Set(valid)];
  } else if (sensitiveRaw !== undefined && sensitiveRaw !== null) {
    problems.push('localharness.approval.sensitivePatterns should be a list of path patterns such as ["**/.env*"]; ignored.');
  }

  const onReadRaw = get('index.onRead');
  let indexOnRead = d.indexOnRead;
  if ((INDEX_ON_READ as readonly unknown[]).includes(onReadRaw)) indexOnRead = onReadRaw as IndexOnRead;
  else if (onReadRaw !== undefined && onReadRaw !== null) problems.push(`localharness.index.onRead must be "off", "ask" or "auto"; using "${d.indexOnRead}".`);
  const reindexRaw = get('index.reindexOnSave');
  const reindexOnSave = typeof reindexRaw === 'boolean' ? reindexRaw : d.reindexOnSave;
  if (reindexRaw !== undefined && reindexRaw !== null && typeof reindexRaw !== 'boolean') problems.push('localharness.index.reindexOnSave should be true or false; using false.');
  const embeddingModel = str('tools.embeddingModel', d.embeddingModel);

  const orchestrator = parseOrchestrator(get, str, int, problems);

  const rules = parseRules(get('approval.rules'));
  problems.push(...rules.problems.map((p) => `localharness.approval.rules: ${p}`));

  const settings: HarnessSettings = {
    provider,
    ollamaHost: normalizeServerUrl(str('ollama.host', d.ollamaHost)) || d.ollamaHost,
    openaiBaseUrl: normalizeServerUrl(str('openai.baseUrl', d.openaiBaseUrl)) || d.openaiBaseUrl,
    model: str('model', d.model),
    contextSize: int('contextSize', d.contextSize, 0, 1_048_576),
    keepAlive: str('keepAlive', d.keepAlive) || d.keepAlive,
    think,
    thinkingBudget: int('thinkingBudget', d.thinkingBudget, 0, 200_000),
    maxRounds: int('maxRounds', d.maxRounds, 1, 200),
    firstByteTimeoutMs: int('firstByteTimeoutSeconds', d.firstByteTimeoutMs / 1000, 5, 3600) * 1000,
    autoApprove,
    rules: rules.rules,
    sensitivePatterns,
    commandEnv: parseCommandEnv(get('sandbox.envPassthrough'), problems),
    agent,
    context,
    fallbackModels,
    instructions: str('instructions', d.instructions),
    mode: modeOf(str('mode', d.mode), problems),
    skillsUserFolder: str('skills.userFolder', d.skillsUserFolder).trim(),
    maxOfferedTools: int('tools.maxOffered', d.maxOfferedTools, 3, 200),
    embeddingModel,
    indexOnRead,
    reindexOnSave,
    indexEmbeddingModel: str('index.embeddingModel', d.indexEmbeddingModel) || embeddingModel,
    orchestrator,
    sandbox: {
      ...parseSandboxSettings(
        { mode: get('sandbox.mode'), network: get('sandbox.network'), networkCommands: get('sandbox.networkCommands'), writablePaths: get('sandbox.writablePaths') },
        problems,
        undefined,
        homedir(),
      ),
      ...sandboxLimits(get, problems),
    },
    images: parseImageSettings(get, problems),
  };
  for (const key of ['ollamaHost', 'openaiBaseUrl'] as const) {
    if (!/^https?:\/\//i.test(settings[key])) {
      problems.push(`${key === 'ollamaHost' ? 'localharness.ollama.host' : 'localharness.openai.baseUrl'} should start with http:// or https:// ("${settings[key]}").`);
    }
  }
  for (const prefix of settings.sandbox.networkCommands) {
    const parsed = parseSimpleCommand(prefix);
    if (!parsed.ok) problems.push(`localharness.sandbox.networkCommands: "${prefix}" never matches: a prefix names one plain command (like "npm install"), but ${parsed.reason}.`);
  }
  return { settings, problems };
}

function parseOrchestrator(
  get: SettingGetter,
  str: (key: string, fallback: string) => string,
  int: (key: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): OrchestratorSettings {
  const d = DEFAULT_SETTINGS.orchestrator;
  const enabledRaw = get('orchestrator.enabled');
  const enabled = typeof enabledRaw === 'boolean' ? enabledRaw : d.enabled;
  if (enabledRaw !== undefined && enabledRaw !== null && typeof enabledRaw !== 'boolean') problems.push('localharness.orchestrator.enabled should be true or false; using false.');
  // A mistyped address must not send the conversation somewhere unexpected: it is reported and the chat's server used.
  const address = (key: string): string => {
    const url = normalizeServerUrl(str(key, ''));
    if (url === '' || /^https?:\/\/[^/]/i.test(url)) return url;
    problems.push(`localharness.${key} "${url}" is not an http(s) address; using the chat's server.`);
    return '';
  };
  const kind = (key: string): OrchestratorSettings['plannerProvider'] => {
    const value = str(key, '');
    if (value === '' || value === 'ollama' || value === 'openai') return value;
    problems.push(`localharness.${key} should be "ollama" or "openai" (empty: the chat's); using the chat's.`);
    return '';
  };
  const settings: OrchestratorSettings = {
    enabled,
    plannerModel: str('orchestrator.plannerModel', d.plannerModel),
    executorModel: str('orchestrator.executorModel', d.executorModel),
    plannerBaseUrl: address('orchestrator.plannerBaseUrl'),
    executorBaseUrl: address('orchestrator.executorBaseUrl'),
    plannerProvider: kind('orchestrator.plannerProvider'),
    executorProvider: kind('orchestrator.executorProvider'),
    maxSteps: int('orchestrator.maxSteps', d.maxSteps, 1, 50),
  };
  if (settings.enabled && !settings.executorModel) {
    problems.push('localharness.orchestrator.enabled is on but localharness.orchestrator.executorModel is empty; turns run in the single-model loop.');
  }
  return settings;
}

/** An object setting checked with its zod schema; a bad one is reported and replaced by the defaults. */
function validatedObject<T extends object>(key: string, raw: unknown, check: (v: unknown) => unknown, problems: string[]): T {
  if (raw === undefined || raw === null) return {} as T;
  try {
    check(raw);
    return raw as T;
  } catch (err) {
    problems.push(`localharness.${key}: ${(err as Error).message}; using the defaults.`);
    return {} as T;
  }
}

/** The address the chosen provider talks to, for messages and the log. */
export function serverUrl(settings: HarnessSettings): string {
  return settings.provider === 'ollama' ? settings.ollamaHost : settings.openaiBaseUrl;
}

/** What the chat's provider is made from (turnEngine's createChatProvider): another value, another provider. */
export function providerSettingsOf(settings: HarnessSettings): Pick<ProviderSettings, 'provider' | 'baseUrl' | 'firstByteTimeoutMs' | 'keepAlive'> {
  return {
    provider: settings.provider,
    baseUrl: serverUrl(settings),
    firstByteTimeoutMs: settings.firstByteTimeoutMs,
    ...(settings.provider === 'ollama' && { keepAlive: settings.keepAlive }),
  };
}

/** `localharness.sandbox.envPassthrough`: variable names; Local Harness's own are refused with a reason. */
function parseCommandEnv(raw: unknown, problems: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push('localharness.sandbox.envPassthrough should be a list of variable names such as ["NODE_ENV"]; ignored.');
    return [];
  }
  const names: string[] = [];
  for (const item of raw) {
    const problem = typeof item === 'string' ? passthroughProblem(item.trim()) : 'an entry is not a string';
    if (problem) problems.push(`localharness.sandbox.envPassthrough: ${problem}; ignored.`);
    else names.push((item as string).trim());
  }
  return [...new Set(names)];
}

/** A server address as settings hold it: trimmed, without trailing slashes. */
export function normalizeServerUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The sandbox's limits when the user set any (none set: the defaults, no field). */
function sandboxLimits(get: SettingGetter, problems: string[]): { limits?: SandboxLimits } {
  const raw = { maxProcesses: get('sandbox.maxProcesses'), maxFileSizeMB: get('sandbox.maxFileSizeMB'), maxMemoryMB: get('sandbox.maxMemoryMB') };
  if (Object.values(raw).every((v) => v === undefined || v === null)) return {};
  return { limits: parseSandboxLimits(raw, problems) };
}

function modeOf(value: string, problems: string[]): ChatMode {
  if (isChatMode(value)) return value;
  problems.push(`localharness.mode should be agent, plan or ask; using agent.`);
  return 'agent';
}
