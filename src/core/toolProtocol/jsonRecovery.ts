// A call object as models print it in JSON text (`{"name": …, "arguments": …}` and its variants). The JSON-as-text
// row and the Mistral row of the call-syntax table (jsonSyntaxes.ts) read their calls with it.
import type { ToolCall } from '../messages';

/** Says whether a candidate call is runnable (offered tool, valid arguments). */
export type CallValidator = (call: ToolCall) => boolean;

/** `{name, arguments}` (or the OpenAI `{function: {…}}` shape, or `tool_name`/`parameters`…) as a call; undefined otherwise. */
export function asCall(item: unknown, newId: () => string): ToolCall | undefined {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return undefined;
  let obj = item as Record<string, unknown>;
  if (obj.function && typeof obj.function === 'object') obj = obj.function as Record<string, unknown>;
  const name = [obj.name, obj.tool_name, obj.tool].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (!name) return undefined;
  const args = obj.arguments ?? obj.parameters ?? obj.args ?? obj.input;
  if (args === undefined) return undefined; // a bare {"name": …} is more likely data than a call
  if (typeof args === 'string') return { id: newId(), name: name.trim(), arguments: args };
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  return { id: newId(), name: name.trim(), arguments: args as Record<string, unknown> };
}
