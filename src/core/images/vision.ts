// Whether the selected model can see images: the server says so (Ollama `/api/show` capabilities "vision", LM Studio
// model type "vlm"), or the user's setting does; otherwise we do not know and say so instead of sending.
/** What vision needs of a provider (core's root files import this folder, so it names no type of theirs). */
export interface ModelInfoSource {
  modelInfo(model: string, signal: AbortSignal): Promise<{ capabilities?: string[] }>;
}

/** 'auto': ask the server; 'on'/'off': the user knows better (servers that do not tell). */
export type VisionSetting = 'auto' | 'on' | 'off';

export function modelSees(info: { capabilities?: string[] } | undefined, setting: VisionSetting = 'auto'): boolean {
  if (setting !== 'auto') return setting === 'on';
  return !!info?.capabilities?.includes('vision');
}

/** The note shown instead of sending images to a model that cannot see them. */
export function cannotSeeMessage(model: string, settingName: string): string {
  return `${model} cannot see images: pick a vision model (for example qwen2.5vl, gemma3 or llava), or, if this model does see, set ${settingName} to "on". Nothing was sent.`;
}

/**
 * Whether `model` sees images, as the setting or the server says; a server that cannot be asked counts as "no"
 * (the user gets the note, and the override setting to use when the server is wrong).
 */
export async function visionFor(provider: ModelInfoSource, model: string, setting: VisionSetting, signal: AbortSignal): Promise<boolean> {
  if (setting !== 'auto') return setting === 'on';
  try {
    return modelSees(await provider.modelInfo(model, signal));
  } catch {
    return false;
  }
}
