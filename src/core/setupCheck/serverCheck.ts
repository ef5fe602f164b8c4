// The first questions: does the server answer, what is it, which models does it list, and is the chosen one there
// (or which listed names come closest). A server that does not answer, or lacks the model, ends the check here.
import { ProviderError, type ChatProvider, type ModelInfo, type ServerKind, type ServerStatus } from '../provider';
import { firstChatModel, sameModel } from '../modelNames';
import type { ServerFinding } from './report';
import { errorMessage, plural } from '../../shared/format';

/** More names than this are not kept in the report. */
export const MAX_LISTED = 200;

export interface ServerCheck {
  finding: ServerFinding;
  /** The model to check next; undefined when the check cannot go on. */
  model?: string;
  modelFromList?: boolean;
  status?: ServerStatus;
  /** What the server said about each listed model (context hints, capabilities). */
  listed?: ModelInfo[];
}

export function serverLabel(kind: ServerKind | undefined, providerId: ChatProvider['id']): string {
  switch (kind) {
    case 'ollama':
      return 'Ollama';
    case 'lmstudio':
      return 'LM Studio';
    case 'llamacpp':
      return 'llama.cpp server';
    case 'vllm':
      return 'vLLM';
    default:
      return providerId === 'ollama' ? 'Ollama' : 'the OpenAI-compatible server';
  }
}

export async function checkServer(provider: ChatProvider, configuredModel: string | undefined, signal: AbortSignal): Promise<ServerCheck> {
  let listed: ModelInfo[] | undefined;
  let listProblem: string | undefined;
  try {
    listed = await provider.listModels(signal);
  } catch (err) {
    if (signal.aborted || (err instanceof ProviderError && err.kind === 'aborted')) throw err;
    const message = errorMessage(err);
    // Only an HTTP answer proves someone listens; a 401 is a server that wants a key.
    if (!(err instanceof ProviderError) || err.kind !== 'http' || err.options.status === 401) {
      const fix = err instanceof ProviderError && err.options.status === 401 ? 'Store the server\'s API key (editor: "Local Harness: Set API Key"; CLI: LOCALHARNESS_API_KEY).' : undefined;
      return { finding: { verdict: 'failed', reachable: false, summary: message, details: [], models: [], ...(fix && { fix }) } };
    }
    listProblem = message;
  }
  // Asked about the model the check goes on with, so the check can use the answer as "before the first request".
  const checked = configuredModel ? (listed?.find((m) => sameModel(m.name, configuredModel))?.name ?? configuredModel) : (firstChatModel(listed ?? []) ?? listed?.[0])?.name;
  const status = await provider.serverStatus?.(checked ?? '', signal).catch((err: unknown) => {
    if (signal.aborted) throw err;
    return undefined;
  });
  const label = serverLabel(status?.kind, provider.id);
  const where = `${label}${status?.version ? ` ${status.version}` : ''} at ${provider.baseUrl}`;
  const base = { reachable: true, ...(status && { kind: status.kind }), ...(status?.version && { version: status.version }) };
  const names = (listed ?? []).map((m) => m.name);
  const models = names.slice(0, MAX_LISTED);

  if (listed === undefined) {
    // It answers but does not list models: the chat request will tell whether the model is there.
    if (!configuredModel) {
      return { finding: { ...base, verdict: 'failed', summary: `${where} answers but does not list its models, and no model is chosen.`, details: [listProblem ?? ''], models, fix: 'Choose a model (editor: "Local Harness: Select Model"; CLI: --model NAME).' } };
    }
    return { finding: { ...base, verdict: 'info', summary: `${where} answers but does not list its models.`, details: [listProblem ?? ''], models }, model: configuredModel, ...(status && { status }) };
  }
  if (names.length === 0) {
    const fix = provider.id === 'ollama' ? 'Pull a model, e.g. `ollama pull qwen3:8b`.' : 'Load a model on the server (LM Studio: Developer tab; llama.cpp: llama-server -m model.gguf).';
    return { finding: { ...base, verdict: 'failed', summary: `${where} answers but has no models.`, details: [], models, fix } };
  }
  if (!configuredModel) {
    const chosen = firstChatModel(listed) ?? listed[0]!;
    return {
      finding: { ...base, verdict: 'info', summary: `${where} answers and lists ${plural(names.length, 'model')}; no model is chosen, so ${chosen.name} (the first listed) was checked.`, details: [], models, modelListed: true },
      model: chosen.name,
      modelFromList: true,
      ...(status && { status }),
      listed,
    };
  }
  const match = names.find((n) => sameModel(n, configuredModel));
  if (!match) {
    const closest = closestNames(configuredModel, names);
    const pull = provider.id === 'ollama' ? `Pull it with \`ollama pull ${configuredModel}\`, or choose` : 'Load or download it on the server, or choose';
    const summary = `${where} does not have the model "${configuredModel}"${closest.length ? `; closest: ${closest.join(', ')}` : ''}.`;
    return {
      finding: { ...base, verdict: 'failed', summary, details: [`Listed: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}`], models, modelListed: false, closest, fix: `${pull} a listed model (editor: "Local Harness: Select Model"; CLI: --model NAME).` },
    };
  }
  return {
    finding: { ...base, verdict: 'ok', summary: `${where} answers and lists ${plural(names.length, 'model')}, ${match} among them.`, details: [], models, modelListed: true },
    model: match,
    ...(status && { status }),
    listed,
  };
}

/** Up to three listed names nearest to `wanted` (edit distance, with the family before ':' counted first). */
export function closestNames(wanted: string, names: readonly string[]): string[] {
  const w = wanted.toLowerCase();
  const family = w.split(':')[0]!;
  // "qwen" of qwen3:4b and qwen2.5-coder:7b: the letters before the first digit or separator.
  const stem = (s: string) => /^[a-z]+/.exec(s)?.[0] ?? '';
  return names
    .map((name) => {
      const n = name.toLowerCase();
      const distance = editDistance(w, n) / Math.max(w.length, n.length, 1);
      const sameFamily = n.split(':')[0] === family || n.startsWith(family) || family.startsWith(n.split(':')[0]!);
      const sameStem = stem(n).length >= 3 && stem(n) === stem(w);
      return { name, score: distance - (sameFamily ? 0.5 : sameStem ? 0.25 : 0) };
    })
    .filter((c) => c.score <= 0.6)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((c) => c.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

