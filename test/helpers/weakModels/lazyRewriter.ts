// A weak model with the lazy-rewrite habit (WEAK-MODELS.md): asked to add one line at the top of a file, it
// reads the file, then either rewrites it whole with `write_file` keeping three functions and a
// "// ... rest of the code unchanged ..." line, or sends an `edit_file` whose new_text holds "// ... existing
// code ...". Told the write was refused, it does the correct small edit, and ends when an edit worked. A pure
// function of the request: native tool calls when the request offers tools, `<tool>` blocks in text when not.
import type { ChatBody, ScriptedReply } from '../fakeLlm';

export type LazyHabit = 'rewrite' | 'edit';

interface Result {
  content: string;
}

/** Tool results as the model sees them: `tool` messages (native) or "[Result of x]" user messages (text protocol). */
function resultsOf(request: ChatBody): Result[] {
  const out: Result[] = [];
  for (const m of request.messages ?? []) {
    const content = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'tool') out.push({ content });
    else if (m.role === 'user') for (const part of content.split(/(?=\[Result of \w+\]\n)/)) if (part.startsWith('[Result of ')) out.push({ content: part.slice(part.indexOf('\n') + 1) });
  }
  return out;
}

function reply(request: ChatBody, name: string, args: Record<string, unknown>): ScriptedReply {
  const native = Array.isArray(request.tools) && request.tools.length > 0;
  if (native) return { toolCalls: [{ name, arguments: args }] };
  return { text: `<tool>${JSON.stringify({ server_name: 'local', tool_name: name, arguments: args })}</tool>` };
}

/** The model for "Add the line `header` at the top of `file`". */
export function lazyRewriter(file: string, header: string, habit: LazyHabit): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const results = resultsOf(request);
    const read = results.find((r) => r.content.startsWith(`${file} (`));
    if (!read) return reply(request, 'read_file', { path: file });
    if (results.some((r) => r.content.startsWith(`Edited ${file}`))) return { text: `Added "${header}" at the top of ${file}.` };
    const lines = read.content.split('\n').slice(1);
    const refused = results.some((r) => r.content.includes('Not applied'));
    if (!refused && habit === 'rewrite') {
      const kept = lines.slice(0, 15).join('\n');
      return reply(request, 'write_file', { path: file, content: `${header}\n${kept}\n// ... rest of the code unchanged ...\n` });
    }
    if (!refused) {
      return reply(request, 'edit_file', { path: file, old_text: lines[0]!, new_text: `${header}\n${lines[0]}\n  // ... existing code ...` });
    }
    return reply(request, 'edit_file', { path: file, old_text: lines[0]!, new_text: `${header}\n${lines[0]}` });
  };
}
