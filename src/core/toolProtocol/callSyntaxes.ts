// The table of tool-call syntaxes models print as text when the server does not turn them into API calls (a new
// model, an old server, a quantised template). One row per family, in the order they are tried at a place in the
// text; a new family is a new row (src/core/toolProtocol/writtenCalls.ts says what a row is).
import { devstralSyntax, hermesSyntax, jsonTextSyntax, mistralSyntax, textProtocolSyntax } from './jsonSyntaxes';
import { harmonySyntax, qwenCoderSyntax } from './markupSyntaxes';
import type { CallSyntax, CallSyntaxId } from './writtenCalls';

export const CALL_SYNTAXES: readonly CallSyntax[] = [
  textProtocolSyntax,
  // Before Hermes: both open with `<tool_call>`, and Hermes steps aside when `<function=` follows.
  qwenCoderSyntax,
  hermesSyntax,
  mistralSyntax,
  devstralSyntax,
  harmonySyntax,
  jsonTextSyntax,
];

export const CALL_SYNTAX_IDS = CALL_SYNTAXES.map((s) => s.id) as [CallSyntaxId, ...CallSyntaxId[]];

export function syntaxLabel(id: CallSyntaxId): string {
  return CALL_SYNTAXES.find((s) => s.id === id)?.label ?? id;
}

/** A model family's own syntax (not JSON text, not the text protocol's `<tool>` blocks). */
export function isFamilySyntax(id: CallSyntaxId | undefined): boolean {
  return id !== undefined && id !== 'json' && id !== 'text-protocol';
}

/** Short names for notices and the setup check's report. */
export const SYNTAX_NAMES: Record<CallSyntaxId, string> = {
  'text-protocol': '<tool> blocks',
  hermes: 'Hermes <tool_call> JSON',
  'qwen3-coder': 'Qwen3-Coder <function=…>',
  mistral: 'Mistral [TOOL_CALLS] JSON',
  devstral: 'Devstral [TOOL_CALLS]NAME[ARGS]',
  harmony: 'gpt-oss harmony',
  json: 'JSON text',
};

export type { CallSyntaxId } from './writtenCalls';
