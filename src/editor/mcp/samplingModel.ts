// Which model answers a server's sampling request: the chat's own, through the same provider and settings
// (and the same model-server consent) a chat turn would use right now.
import type { ChatProvider } from '../../core/provider';
import type { HarnessSettings, ParsedSettings } from '../settings/harnessSettings';

export interface SamplingModelSource {
  /** The model the chat uses now, for the approval dialog; undefined when none is chosen yet. */
  currentName(): string | undefined;
  /** The provider and model to answer with. */
  resolve(signal: AbortSignal): Promise<{ provider: ChatProvider; model: string }>;
}

/** Where the settings and the model server come from (the editor's settings and model services). */
export interface ChatModelOwner {
  settings: {
    settings(): ParsedSettings;
    settingsForRequest(signal?: AbortSignal): Promise<ParsedSettings>;
  };
  models: {
    provider(settings: HarnessSettings): Promise<ChatProvider>;
    firstChatModel(settings: HarnessSettings, signal: AbortSignal): Promise<string>;
  };
}

export function samplingModelOf(owner: ChatModelOwner): SamplingModelSource {
  return {
    currentName: () => owner.settings.settings().settings.model || undefined,
    async resolve(signal) {
      const { settings } = await owner.settings.settingsForRequest(signal);
      const provider = await owner.models.provider(settings);
      // No model chosen: the first the server lists, as a chat turn takes it.
      const model = settings.model || (await owner.models.firstChatModel(settings, signal));
      return { provider, model };
    },
  };
}
