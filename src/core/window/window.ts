// The context window we budget against is the one the server actually runs, not the one we wish it had.
import { ProviderError, type ChatProvider, type ModelInfo } from '../provider';
import { errorMessage, formatCount } from '../../shared/format';

export type WindowSource =
  | 'num_ctx'
  | 'loaded'
  | 'configured'
  | 'model_max'
  | 'default'
  /** The server said after a request what it runs (Ollama `/api/ps`). */
  | 'running'
  /** Found from the server's prompt counts: it cuts prompts above this size. */
  | 'detected'
  /** Detected in an earlier session against the same server and model. */
  | 'remembered';

export interface ContextWindow {
  tokens: number;
  source: WindowSource;
  /** Why the number is what it is, when that is not obvious (shown next to the context meter). */
  note?: string;
}

export const DEFAULT_WINDOW = 4096;

export interface WindowInputs {
  /** The server takes the window per request (Ollama `num_ctx`). */
  contextSizeApi: boolean;
  /** The num_ctx we send, where the server takes one. */
  requestedContextSize?: number;
  /** The user's setting, for servers that do not tell us. */
  configured?: number;
  info?: ModelInfo;
}

export function chooseContextWindow(inputs: WindowInputs): ContextWindow {
  const { info } = inputs;
  if (inputs.contextSizeApi && !inputs.requestedContextSize && info?.defaultContextSize) {
    // Nothing configured: the provider sends its own default num_ctx, and that is the window.
    return { tokens: info.defaultContextSize, source: 'num_ctx' };
  }
  if (inputs.contextSizeApi && inputs.requestedContextSize) {
    const max = info?.contextLength;
    if (max && max < inputs.requestedContextSize) {
      return { tokens: max, source: 'model_max', note: `num_ctx ${inputs.requestedContextSize} is above the model's maximum of ${max}; the server uses ${max}.` };
    }
    return { tokens: inputs.requestedContextSize, source: 'num_ctx' };
  }
  if (info?.loadedContextLength) {
    const note =
      inputs.configured && inputs.configured !== info.loadedContextLength
        ? `The server runs the model with ${info.loadedContextLength} tokens of context; the configured ${inputs.configured} is ignored.`
        : undefined;
    return { tokens: info.loadedContextLength, source: 'loaded', ...(note && { note }) };
  }
  if (inputs.configured) return { tokens: inputs.configured, source: 'configured' };
  if (info?.contextLength) {
    return { tokens: info.contextLength, source: 'model_max', note: 'The server did not say what context it runs with; using the model maximum. Configure the context size if requests get cut.' };
  }
  const why = info?.listed === false ? `The server does not list the model "${info.name}", so it did not say what context it runs` : 'The server did not report a context size';
  return {
    tokens: DEFAULT_WINDOW,
    source: 'default',
    note: `${why}; assuming ${formatCount(DEFAULT_WINDOW)} tokens. Set localharness.contextSize (CLI: --num-ctx N) to the window your server runs.`,
  };
}

/** Asks the server about the model once; a failing lookup falls back to what we know (never throws, except on abort). */
export async function resolveContextWindow(
  provider: ChatProvider,
  model: string,
  options: { contextSize?: number; configured?: number },
  signal: AbortSignal,
): Promise<ContextWindow> {
  const base: WindowInputs = {
    contextSizeApi: provider.capabilities.contextSizeApi,
    ...(options.contextSize !== undefined && { requestedContextSize: options.contextSize }),
    ...(options.configured !== undefined && { configured: options.configured }),
  };
  try {
    const info = await provider.modelInfo(model, signal);
    return chooseContextWindow({ ...base, info });
  } catch (err) {
    // A server that takes a connection and then does not answer a metadata request will not answer the chat
    // either: say so now instead of after the chat's long cold-load wait.
    if (signal.aborted || isNoAnswer(err)) throw err;
    const chosen = chooseContextWindow(base);
    const why = errorMessage(err);
    return { ...chosen, note: `Could not ask ${provider.baseUrl} about ${model} (${why}). ${chosen.note ?? ''}`.trim() };
  }
}

function isNoAnswer(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'first_byte_timeout';
}
