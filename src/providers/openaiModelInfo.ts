// What an OpenAI-compatible server tells us about a model's context. Each server has its own extension:
// LM Studio `/api/v0/models` (max and loaded context), vLLM `max_model_len` and llama.cpp `meta.n_ctx_train`
// in `/v1/models`, llama.cpp `/props` (the context it runs with). Missing endpoints are not errors.
import type { ModelInfo } from '../core/provider';
import { positive } from './jsonValues';

export interface ModelListEntry {
  id: string;
  [key: string]: unknown;
}

/** `http://host:1234/v1` → `http://host:1234` (the LM Studio and llama.cpp extras live at the root). */
export function serverRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/v1\/?$/, '/').replace(/\/+$/, '');
  return url.toString().replace(/\/+$/, '');
}

/** Reads LM Studio's native model list; undefined when this server is not LM Studio. */
export async function lmStudioModelInfo(
  fetchFn: typeof fetch,
  root: string,
  model: string,
  signal: AbortSignal,
): Promise<ModelInfo | undefined> {
  const body = await getJson(fetchFn, `${root}/api/v0/models`, signal);
  const data = listOf(body);
  if (!data) return undefined;
  const entry = data.find((m) => m.id === model);
  if (!entry) return undefined;
  const info: ModelInfo = { name: model };
  const max = positive(entry.max_context_length);
  if (max) info.contextLength = max;
  const loaded = positive(entry.loaded_context_length);
  if (loaded) info.loadedContextLength = loaded;
  if (entry.type === 'embeddings') info.capabilities = ['embedding'];
  // LM Studio marks models that take images `vlm`.
  if (entry.type === 'vlm') info.capabilities = ['vision'];
  return info;
}

/** Context hints inside a `/v1/models` entry (vLLM, llama.cpp). */
export function infoFromModelEntry(entry: ModelListEntry): ModelInfo {
  const info: ModelInfo = { name: entry.id };
  const vllmMax = positive(entry.max_model_len);
  if (vllmMax) {
    // vLLM serves exactly this many tokens; it is both the maximum and what is loaded.
    info.contextLength = vllmMax;
    info.loadedContextLength = vllmMax;
  }
  const meta = entry.meta;
  if (meta && typeof meta === 'object') {
    const trained = positive((meta as Record<string, unknown>).n_ctx_train);
    if (trained && !info.contextLength) info.contextLength = trained;
  }
  return info;
}

/** What llama.cpp server's `/props` says: the context size each slot runs with, and how many slots it has (`-np`). */
export interface LlamaCppProps {
  nCtx?: number;
  slots?: number;
}

/** llama.cpp server's `/props`; undefined when this server is not llama.cpp. */
export async function llamaCppProps(fetchFn: typeof fetch, root: string, signal: AbortSignal): Promise<LlamaCppProps | undefined> {
  const body = await getJson(fetchFn, `${root}/props`, signal);
  if (!body || typeof body !== 'object') return undefined;
  const settings = (body as Record<string, unknown>).default_generation_settings;
  if (!settings || typeof settings !== 'object') return undefined;
  const nCtx = positive((settings as Record<string, unknown>).n_ctx);
  const slots = positive((body as Record<string, unknown>).total_slots);
  return { ...(nCtx !== undefined && { nCtx }), ...(slots !== undefined && { slots }) };
}

/** GET returning parsed JSON, or undefined for any non-2xx or non-JSON answer. Network errors propagate. */
export async function getJson(fetchFn: typeof fetch, url: string, signal: AbortSignal): Promise<unknown> {
  const response = await fetchFn(url, { signal, headers: { accept: 'application/json' } });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

export function listOf(body: unknown): ModelListEntry[] | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return undefined;
  return data.filter((m): m is ModelListEntry => !!m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string');
}

