// The badges beside the model picker: the model's window, and whether it sees images and calls tools, as the
// server says (Ollama `/api/show`, LM Studio `/api/v0/models`); undefined when the server cannot be asked.
import type { ChatProvider } from '../../core/provider';
import { modelSees, type VisionSetting } from '../../core/images/vision';
import type { SelectedModelInfo } from '../../shared/imageUpload';

export async function selectedModelInfo(provider: Pick<ChatProvider, 'modelInfo'>, model: string, vision: VisionSetting, signal: AbortSignal): Promise<SelectedModelInfo | undefined> {
  try {
    const info = await provider.modelInfo(model, signal);
    const window = info.loadedContextLength ?? info.contextLength;
    const tools = info.capabilities?.includes('completion') || info.capabilities?.includes('tools') ? info.capabilities.includes('tools') : undefined;
    return { vision: modelSees(info, vision), ...(window && { window }), ...(tools !== undefined && { tools }) };
  } catch {
    return undefined;
  }
}
