// The Ollama twin of minimal-loop.mjs: the smallest append-only agent loop over `/api/chat` (the `ollama`
// package), the same four file tools, no approval, no events, no extras.
// Usage: node bench/minimal-loop-ollama.mjs HOST MODEL WORKSPACE "TASK"
import { Ollama } from 'ollama';
import { minimalTools } from './minimal-tools.mjs';

const [host, model, workspace, task] = process.argv.slice(2);
const client = new Ollama({ host });
const { tools, defs } = minimalTools(workspace);

const messages = [{ role: 'user', content: task }];
for (let round = 0; round < 40; round++) {
  const stream = await client.chat({ model, messages, tools: defs, stream: true });
  let content = '';
  const calls = [];
  for await (const chunk of stream) {
    if (chunk.message?.content) {
      content += chunk.message.content;
      process.stdout.write(chunk.message.content);
    }
    for (const c of chunk.message?.tool_calls ?? []) calls.push(c);
  }
  messages.push({ role: 'assistant', content, ...(calls.length && { tool_calls: calls }) });
  if (!calls.length) break;
  for (const c of calls) {
    let result;
    try {
      result = await tools[c.function.name](c.function.arguments);
    } catch (e) {
      result = `Error: ${e.message}`;
    }
    messages.push({ role: 'tool', tool_name: c.function.name, content: String(result) });
  }
}
process.stdout.write('\n');
