// The tool protocol setting: native tool calling, `<tool>` blocks in text, or decided from the model.
import { z } from 'zod';
import type { ChatProvider } from '../provider';
import { ProviderError } from '../provider';
import type { CallSyntaxId } from './writtenCalls';

export const toolProtocolSettingSchema = z.enum(['native', 'xml', 'auto']);
export type ToolProtocolSetting = z.infer<typeof toolProtocolSettingSchema>;
export type ToolProtocol = 'native' | 'xml';

/**
 * What a setup check found about a model's tool calling, looked up per server and model (src/core/setupCheck/memory.ts):
 * with `auto`, it decides before the server's model info does, and its notice says why.
 */
export type CheckedToolProtocol = (
  provider: Pick<ChatProvider, 'id' | 'baseUrl'>,
  model: string,
) => Promise<{ protocol: ToolProtocol; notice: string; /** The syntax the model printed its calls in. */ callSyntax?: CallSyntaxId } | undefined>;

/**
 * auto: native when the server says the model supports tools (Ollama `/api/show` capabilities); when the
 * server does not report capabilities, native when the provider supports tools at all; else xml.
 */
export async function resolveToolProtocol(setting: ToolProtocolSetting, provider: ChatProvider, model: string, signal: AbortSignal): Promise<ToolProtocol> {
  if (setting !== 'auto') return setting;
  try {
    const info = await provider.modelInfo(model, signal);
    if (info.capabilities && info.capabilities.length > 0) return info.capabilities.includes('tools') ? 'native' : 'xml';
  } catch (err) {
    // Cancelled, or the server took the connection and never answered (the chat would wait on it too).
    if (signal.aborted || (err instanceof ProviderError && (err.kind === 'aborted' || err.kind === 'first_byte_timeout'))) throw err;
    // Model info is a nicety here: without it, go by what the provider supports.
  }
  return provider.capabilities.tools ? 'native' : 'xml';
}

/** An HTTP error saying the model cannot take tools (Ollama: "… does not support tools"). */
export function isToolsUnsupportedError(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'http' && (err.options.status ?? 0) < 500 && /support(?:s)? tools|tool(?:s)? (?:are |is )?not supported|tool use is not supported|does not support function/i.test(err.message);
}
