// What the setup check will send, said before anything is sent (a confirmation in the editor, a printed line in
// the CLI). It runs only when the user asks.
import { formatCount } from '../../shared/format';
import { configuredEmbeddingModels, type EmbeddingModels } from './embeddingCheck';
import { PROBE_FILE } from './toolProbe';
import { CACHE_PREFIX_TOKENS } from './speedProbe';

export function setupCheckPlan(input: { baseUrl: string; model?: string; embeddingModels: EmbeddingModels }): { summary: string; lines: string[] } {
  const model = input.model?.trim() || 'the first model it lists';
  const embed = configuredEmbeddingModels(input.embeddingModels).map((m) => m.name);
  const lines = [
    `the model list, and what the server says about ${model} (context, capabilities, whether it is loaded)`,
    `1–2 tool probes to ${model}: a one-line task ("what is the first line of ${PROBE_FILE}?") with one read_file tool that is never run`,
    `2 short requests sharing a ~${formatCount(CACHE_PREFIX_TOKENS)}-token made-up text, to time the model and its prompt cache`,
    ...(embed.length ? [`one embedding of two words with ${embed.join(' and ')}`] : []),
  ];
  return {
    summary: `The setup check sends a handful of short requests to ${input.baseUrl} (it may load the model into memory); nothing from your workspace or chats is sent.`,
    lines,
  };
}
