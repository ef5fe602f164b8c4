// A weak model that rewrites a whole file in one call, longer than the server lets it write: the server stops the
// reply at its output limit (`done_reason`/`finish_reason` "length"), so the call is cut. Told its call was cut,
// it makes one small edit instead, then reports. Every reply is a function of the request (its last message and
// the output limit it asks for).
import type { ChatBody, ScriptedReply } from '../fakeLlm';

/** How the cut call reaches the client: native call deltas (OpenAI-compatible), JSON text, or a `<tool>` block. */
export type CutForm = 'native' | 'json' | 'tool';

/** The server's own output limit when the request sets none (a model file's `num_predict`, a server default). */
export const SERVER_DEFAULT_LIMIT = 300;

/** The output limit a request asks for: Ollama `options.num_predict`, OpenAI-compatible `max_tokens`. */
export function requestLimit(request: ChatBody): number | undefined {
  const options = request.options as { num_predict?: unknown } | undefined;
  const limit = options?.num_predict ?? request.max_tokens;
  return typeof limit === 'number' ? limit : undefined;
}

export interface LongWriteTask {
  file: string;
  /** The file as it is, and the line to add at its top. */
  original: string;
  newLine: string;
}

/** Every limit the model was asked to keep, request by request. */
export function longWriteModel(form: CutForm, task: LongWriteTask): ((request: ChatBody) => ScriptedReply) & { limits: Array<number | undefined> } {
  const limits: Array<number | undefined> = [];
  const callReply = (name: string, args: Record<string, unknown>): ScriptedReply =>
    form === 'tool'
      ? { text: `<tool>${JSON.stringify({ server_name: 'local', tool_name: name, arguments: args })}</tool>` }
      : { toolCalls: [{ name, arguments: args }] };
  const fn = (request: ChatBody): ScriptedReply => {
    const limit = requestLimit(request);
    limits.push(limit);
    const last = request.messages?.at(-1);
    const content = typeof last?.content === 'string' ? last.content : '';
    if (last?.role === 'tool' || content.startsWith('[Result of edit_file]')) {
      return callReply('task_completion', { result: `Added "${task.newLine}" at the top of ${task.file}.` });
    }
    const firstLine = task.original.split('\n')[0]!;
    if (/cut off at the output limit/.test(content)) {
      return callReply('edit_file', { path: task.file, old_text: firstLine, new_text: `${task.newLine}\n${firstLine}` });
    }
    // The whole file written back, cut where the server stops it (about 4 characters a token).
    const args = JSON.stringify({ path: task.file, content: `${task.newLine}\n${task.original}` });
    const room = (limit ?? SERVER_DEFAULT_LIMIT) * 4;
    if (form === 'native') return { toolCalls: [{ name: 'write_file', arguments: args.slice(0, room) }], finishReason: 'length', chunkSize: 64 };
    const text =
      form === 'json'
        ? `{"name": "write_file", "arguments": ${args}}`
        : `<tool>{"server_name": "local", "tool_name": "write_file", "arguments": ${args}}</tool>`;
    return { text: `Rewriting the file.\n${text}`.slice(0, room), finishReason: 'length', chunkSize: 64 };
  };
  return Object.assign(fn, { limits });
}
