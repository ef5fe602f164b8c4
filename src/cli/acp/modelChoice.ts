// The model choice as an ACP session config option (category "model"): the chat models the configured server
// lists, the session's model first when the server does not list it (a --model the user named).
import type * as acp from '@agentclientprotocol/sdk';
import type { ChatProvider } from '../../core/provider';
import { isChatModel } from '../../core/modelNames';

export const MODEL_OPTION_ID = 'model';

/** The server's chat models; none when it cannot list them (the option is then left out). */
export async function listedChatModels(provider: ChatProvider, signal: AbortSignal): Promise<string[]> {
  try {
    return (await provider.listModels(signal)).filter(isChatModel).map((m) => m.name);
  } catch {
    return [];
  }
}

export function modelOptions(current: string, listed: readonly string[]): acp.SessionConfigOption[] {
  if (listed.length === 0) return [];
  const names = listed.includes(current) ? listed : [current, ...listed];
  return [
    {
      type: 'select',
      id: MODEL_OPTION_ID,
      name: 'Model',
      description: 'The model on the configured server that answers in this session',
      category: 'model',
      currentValue: current,
      options: names.map((name) => ({ value: name, name })),
    },
  ];
}
