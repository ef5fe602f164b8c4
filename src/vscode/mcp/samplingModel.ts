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

/** The parts of the chat controller this needs (HarnessController satisfies it). */
export interface ChatModelOwner {
  settings(): ParsedSettings;
  settingsForRequest(signal?: AbortSignal): Promise<ParsedSettings>;
  statusInfo(): { model: string };
  models: {
    provider(settings: HarnessSettings): Promise<ChatProvider>;
    firstChatModel(settings: HarnessSettings, signal: AbortSignal): Promise<string>;
  };
}

/** `owner` is a getter: the controller is created after the MCP wiring. */
export function samplingModelOf(owner: () => ChatModelOwner): SamplingModelSource {
  return {
    currentName: () => owner().settings().settings.model || owner().statusInfo().model || undefined,
    async resolve(signal) {
      const chat = owner();
      const { settings } = await chat.settingsForRequest(signal);
      const provider = await chat.models.provider(settings);
      const model = settings.model || chat.statusInfo().model || (await chat.models.firstChatModel(settings, signal));
      return { provider, model };
    },
  };
}
