// What a llama.cpp server's start flags mean for a coding agent, said in the setup check: the chat's cached prompt
// survives side requests only in a slot of its own, a change in the middle of a prompt is re-read unless chunks
// can be reused, and hybrid / sliding-window models reuse nothing without context checkpoints.
import type { ServerStatus } from '../provider';

/** Families whose attention is hybrid (recurrent layers) or a sliding window: their cache needs checkpoints. */
const CHECKPOINT_MODELS = /gemma-?[23]|qwen3-?next|granite-?4|jamba|mamba|lfm2|falcon-?h1|gpt-oss|nemotron-?h/i;

export function llamaCppAdvice(status: ServerStatus, model: string): string[] {
  const advice: string[] = [];
  if (status.slots === 1) {
    advice.push(
      'llama-server runs one slot: side requests (the planner and executor, index summaries, MCP sampling) take the chat\'s cached prompt and the next turn reads the whole conversation again. Start it with -np 2 (and -c twice as large: the slots share it) so the chat keeps a slot of its own.',
    );
  } else if (status.slots !== undefined) {
    advice.push(`llama-server runs ${status.slots} slots (each gets ${status.loadedContextLength ? `${status.loadedContextLength} tokens` : 'a share of -c'}): the chat keeps slot 0 and side requests use slot ${status.slots - 1} (id_slot), so each keeps its own cached prompt.`);
  }
  advice.push('Start llama-server with --cache-reuse 256: after a compression changes the middle of the conversation, it reuses the unchanged chunks instead of reading them again.');
  if (CHECKPOINT_MODELS.test(model)) {
    advice.push(`${model} is a hybrid or sliding-window model: without --ctx-checkpoints (e.g. --ctx-checkpoints 8, or --swa-full) llama-server can reuse little of its cached prompt.`);
  }
  return advice;
}
