// A stand-in for real tokenizers, used as the "server-reported" count in calibration tests and the token
// bench. No real BPE vocabulary ships with this repo, so this is a documented proxy: a GPT-style pre-split
// (words with their leading space, digit groups, punctuation runs, newline runs, space runs), then BPE-like
// costs per piece. Two profiles:
//  - "large" vocabulary (~100k+ entries, cl100k/Qwen-like): a word of up to 8 letters is one token, longer
//    words split every 5 letters, digits group by 3, punctuation pairs merge, indentation merges by 8;
//  - "small" vocabulary (~32k, Llama-2/Mistral-like): words split every 4 letters beyond 5, every digit and
//    every punctuation character is a token, indentation merges by 4.
// Absolute numbers differ from any real model; what matters is that each profile disagrees with the
// estimator differently for prose, code and JSON, as real tokenizers do.
import type { ChatMessage, ToolDefinition } from '../../../src/core/messages';

export type Vocabulary = 'large' | 'small';

const PIECE = / ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\n+|[ \t]+/g;

export function referenceTokens(text: string, vocab: Vocabulary = 'large'): number {
  const small = vocab === 'small';
  let n = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    const body = piece.startsWith(' ') && piece.length > 1 ? piece.slice(1) : piece;
    if (/^[A-Za-z]+$/.test(body)) {
      // camelCase and PascalCase identifiers split at their humps.
      for (const part of body.split(/(?=[A-Z][a-z])/)) {
        n += small ? (part.length <= 5 ? 1 : Math.ceil(part.length / 4)) : part.length <= 8 ? 1 : Math.ceil(part.length / 5);
      }
    } else if (/^[0-9]+$/.test(body)) n += small ? body.length : Math.ceil(body.length / 3);
    else if (/^\n+$/.test(body)) n += 1;
    else if (/^[ \t]+$/.test(body)) n += Math.ceil(body.length / (small ? 4 : 8));
    else n += small ? body.length : Math.ceil(body.length / 2);
  }
  return n;
}

/** Chat-template framing a server adds per message, and to open the reply. */
const TEMPLATE_PER_MESSAGE = 5;
const TEMPLATE_REPLY = 3;

/** What a server using the reference tokenizer would report as prompt tokens for a request. */
export function referencePromptTokens(messages: readonly ChatMessage[], tools: readonly ToolDefinition[] = [], vocab: Vocabulary = 'large'): number {
  let n = TEMPLATE_REPLY;
  for (const m of messages) {
    n += TEMPLATE_PER_MESSAGE + referenceTokens(m.content, vocab);
    for (const call of m.toolCalls ?? []) {
      n += referenceTokens(call.name, vocab) + referenceTokens(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments), vocab) + 3;
    }
  }
  if (tools.length) n += referenceTokens(JSON.stringify(tools.map((t) => ({ type: 'function', function: t }))), vocab);
  return n;
}
