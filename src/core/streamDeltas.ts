// One reading of a provider's stream: each kind of delta to its handler. The turn's rounds, the text tool protocol,
// the compression pass and structured replies all read streams this way.
import { usageOf, type PromptUsage, type ReadingProgress, type StreamDelta } from './provider';
import type { ToolCall } from './messages';

export interface DeltaHandlers {
  /** `reading`: the server is reading the prompt, this far (llama.cpp progress, or an estimate). */
  status?(message: string, reading?: ReadingProgress): void;
  thinking?(text: string): void;
  text?(text: string): void;
  toolCall?(call: ToolCall): void;
  usage?(usage: PromptUsage): void;
  done?(finishReason: string): void;
}

/** Reads the whole stream (breaking out of it, by a throw in a handler, aborts the request). */
export async function readDeltas(stream: AsyncIterable<StreamDelta>, on: DeltaHandlers): Promise<void> {
  for await (const delta of stream) {
    switch (delta.type) {
      case 'status':
        on.status?.(delta.message, delta.reading);
        break;
      case 'thinking':
        on.thinking?.(delta.text);
        break;
      case 'text':
        on.text?.(delta.text);
        break;
      case 'tool_call':
        on.toolCall?.(delta.call);
        break;
      case 'usage':
        on.usage?.(usageOf(delta));
        break;
      case 'done':
        on.done?.(delta.finishReason);
        break;
    }
  }
}
