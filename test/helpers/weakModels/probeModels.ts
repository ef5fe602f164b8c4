// Models as the setup check meets them (src/core/setupCheck): asked "what is the first line of <file>?" with one
// read_file tool, or told in the system prompt to write <tool> blocks, or asked to count. Each reply is a function
// of the request alone: the tools it was offered, what the system prompt explains, what the user asks.
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { renderCalls, type CallTextSyntax } from './callText';

/** What the model does when a tool is offered through the API. */
export type NativeHabit =
  /** Calls it through the API. */
  | 'native'
  /** Prints `{"name": …, "arguments": …}` in its answer instead (a template without tool parsing). */
  | 'json-text'
  /** Answers without calling anything (guesses). */
  | 'none'
  /** Prints the call in its family's own syntax (`family`), which the server did not parse. */
  | 'family-text';

/** What it does when the system prompt explains `<tool>` blocks: writes one, or answers without. */
export type TextHabit = 'follows' | 'ignores';

export interface ProbeModelOptions {
  native: NativeHabit;
  text: TextHabit;
  /** The family syntax of `family-text` (default Devstral's). */
  family?: CallTextSyntax;
}

/** A reply for the setup check's requests; undefined for any other request (so it composes with other scripts). */
export function setupProbeModel(options: ProbeModelOptions): (body: ChatBody) => ScriptedReply | undefined {
  return (body) => {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const system = messages.filter((m) => m.role === 'system').map((m) => text(m.content)).join('\n');
    const user = text([...messages].reverse().find((m) => m.role === 'user')?.content);
    const file = /first line of (?:the file )?([\w./-]+\.\w+)/i.exec(user)?.[1];
    const offered = toolNames(body);
    if (file && offered.includes('read_file')) {
      if (options.native === 'native') return { toolCalls: [{ name: 'read_file', arguments: { path: file } }] };
      if (options.native === 'family-text') return { text: `Reading it.\n${renderCalls(options.family ?? 'devstral', [{ name: 'read_file', arguments: { path: file } }])}` };
      if (options.native === 'json-text') return { text: `I will read it first.\n{"name": "read_file", "arguments": {"path": "${file}"}}` };
      return { text: `The first line of ${file} is probably a greeting.` };
    }
    if (file && /<tool>/.test(system)) {
      if (options.text === 'follows') return { text: `<tool>{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "${file}"}}</tool>` };
      return { text: `I think ${file} starts with "Hello".` };
    }
    if (/count from one to twenty/i.test(user)) return { text: 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty' };
    if (/letters of the alphabet/i.test(user)) return { text: 'a b c d e f g h i j' };
    return undefined;
  };
}

function toolNames(body: ChatBody): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  return tools.map((t) => String((t.function as { name?: unknown } | undefined)?.name ?? t.name ?? ''));
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : '')).join('');
  return '';
}
