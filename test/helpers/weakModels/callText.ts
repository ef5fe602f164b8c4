// How each model family prints tool calls as text when the server does not parse them, written from the families'
// chat templates (not from the product's parsers): the fake model's side of issue 30's table.
import type { ScriptedReply, ScriptedToolCall } from '../fakeLlm';
import type { ChatBody } from '../fakeLlm';

export type CallTextSyntax = 'qwen3-coder' | 'hermes' | 'mistral' | 'devstral' | 'harmony' | 'json' | 'text-protocol';

export const CALL_TEXT_SYNTAXES: readonly CallTextSyntax[] = ['qwen3-coder', 'hermes', 'mistral', 'devstral', 'harmony', 'json'];

function argsOf(call: ScriptedToolCall): Record<string, unknown> {
  return typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as Record<string, unknown>) : call.arguments;
}

/** Mistral's call ids: nine letters and digits. */
function mistralId(n: number): string {
  return `call${String(n).padStart(5, '0')}`;
}

export function renderCalls(syntax: CallTextSyntax, calls: readonly ScriptedToolCall[]): string {
  switch (syntax) {
    case 'qwen3-coder':
      return calls
        .map((c) => {
          const params = Object.entries(argsOf(c))
            .map(([k, v]) => `<parameter=${k}>\n${typeof v === 'string' ? v : JSON.stringify(v)}\n</parameter>\n`)
            .join('');
          return `<tool_call>\n<function=${c.name}>\n${params}</function>\n</tool_call>`;
        })
        .join('\n');
    case 'hermes':
      return calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: argsOf(c) })}\n</tool_call>`).join('\n');
    case 'mistral':
      return `[TOOL_CALLS]${JSON.stringify(calls.map((c, i) => ({ name: c.name, arguments: argsOf(c), id: mistralId(i) })))}`;
    case 'devstral':
      return calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${JSON.stringify(argsOf(c))}`).join('');
    case 'harmony':
      return calls
        .map((c, i) => `${i > 0 ? '<|start|>assistant' : ''}<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${JSON.stringify(argsOf(c))}<|call|>`)
        .join('');
    case 'json':
      return calls.length === 1
        ? JSON.stringify({ name: calls[0]!.name, arguments: argsOf(calls[0]!) })
        : JSON.stringify(calls.map((c) => ({ name: c.name, arguments: argsOf(c) })));
    case 'text-protocol':
      return calls.map((c) => `<tool>${JSON.stringify({ server_name: 'local', tool_name: c.name, arguments: argsOf(c) })}</tool>`).join('\n');
  }
}

/** Which replies carry their calls as text: the first only, the last only (two calls), or every one. */
export type TextCallHabit = 'first' | 'last' | 'every';

/**
 * Wraps a model: its replies with calls print them as text in `syntax` (per `habit`), after a short sentence,
 * instead of calling natively; `counts.text` says how many replies did.
 */
export function printsCallsAs(
  model: (request: ChatBody, index: number) => ScriptedReply | undefined,
  syntax: CallTextSyntax,
  habit: TextCallHabit,
  isLast: (reply: ScriptedReply) => boolean,
): ((request: ChatBody, index: number) => ScriptedReply | undefined) & { counts: { text: number } } {
  const counts = { text: 0 };
  let replies = 0;
  const fn = (request: ChatBody, index: number) => {
    const reply = model(request, index);
    if (!reply?.toolCalls?.length) return reply;
    const nth = replies++;
    const asText = habit === 'every' || (habit === 'first' && nth === 0) || (habit === 'last' && isLast(reply));
    if (!asText) return reply;
    counts.text++;
    const { toolCalls, ...rest } = reply;
    return { ...rest, text: `On it.\n${renderCalls(syntax, toolCalls)}`, chunkSize: 7 };
  };
  return Object.assign(fn, { counts });
}
