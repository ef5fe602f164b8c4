// Which OpenAI-compatible server this is, told apart by the endpoints only it serves: LM Studio `/api/v0/models`
// (with each model's state and loaded context), llama.cpp `/props` (the context its slots run, its build),
// vLLM `/version` (and `max_model_len` in `/v1/models`). Missing endpoints are not errors; network errors are.
import type { ModelInfo, ServerStatus } from '../core/provider';
import { getJson, listOf } from './openaiModelInfo';
import { isRecord, positive } from './jsonValues';

export async function openaiServerStatus(
  fetchFn: typeof fetch,
  root: string,
  model: string,
  listModels: () => Promise<ModelInfo[]>,
  signal: AbortSignal,
): Promise<ServerStatus> {
  const lmStudio = listOf(await getJson(fetchFn, `${root}/api/v0/models`, signal));
  if (lmStudio) {
    const entry = lmStudio.find((m) => m.id === model);
    const loaded = positive(entry?.loaded_context_length);
    return {
      kind: 'lmstudio',
      ...(entry && { loaded: entry.state === 'loaded' || loaded !== undefined }),
      ...(loaded !== undefined && { loadedContextLength: loaded }),
    };
  }
  const props = await getJson(fetchFn, `${root}/props`, signal);
  const settings = isRecord(props) && isRecord(props.default_generation_settings) ? props.default_generation_settings : undefined;
  if (isRecord(props) && settings) {
    const nCtx = positive(settings.n_ctx);
    const build = typeof props.build_info === 'string' && props.build_info ? props.build_info : undefined;
    const slots = positive(props.total_slots);
    // llama-server serves the one model it was started with: it is loaded.
    return {
      kind: 'llamacpp',
      loaded: true,
      ...(build && { version: build }),
      ...(nCtx !== undefined && { loadedContextLength: nCtx }),
      ...(slots !== undefined && { slots }),
    };
  }
  const version = await getJson(fetchFn, `${root}/version`, signal);
  if (isRecord(version) && typeof version.version === 'string' && version.version) {
    const listed = (await listModels().catch(() => [])).find((m) => m.name === model);
    return {
      kind: 'vllm',
      version: version.version,
      ...(listed && { loaded: true }),
      ...(listed?.loadedContextLength !== undefined && { loadedContextLength: listed.loadedContextLength }),
    };
  }
  return { kind: 'openai-compatible' };
}
