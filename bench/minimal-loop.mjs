// The baseline for the harness-overhead benchmark: the smallest agent loop that can do the same file task.
// Plain `openai` client, the same four file tools, no approval, no events, no extras.
// Usage: node bench/minimal-loop.mjs BASE_URL MODEL WORKSPACE "TASK"
import OpenAI from 'openai';
import { minimalTools } from './minimal-tools.mjs';

const [baseURL, model, workspace, task] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'none' });
const { tools, defs } = minimalTools(workspace);

const messages = [{ role: 'user', content: task }];
for (let round = 0; round < 40; round++) {
  const stream = await client.chat.completions.create({ model, messages, tools: defs, stream: true });
  let content = '';
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (!delta) continue;
    if (delta.content) {
      content += delta.content;
      process.stdout.write(delta.content);
    }
    for (const tc of delta.tool_calls ?? []) {
      const c = (calls[tc.index] ??= { id: '', name: '', args: '' });
      if (tc.id) c.id = tc.id;
      if (tc.function?.name) c.name = tc.function.name;
      if (tc.function?.arguments) c.args += tc.function.arguments;
    }
  }
  messages.push({
    role: 'assistant',
    content,
    ...(calls.length && { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) }),
  });
  if (!calls.length) break;
  for (const c of calls) {
    let result;
    try {
      result = await tools[c.name](JSON.parse(c.args));
    } catch (e) {
      result = `Error: ${e.message}`;
    }
    messages.push({ role: 'tool', tool_call_id: c.id, content: String(result) });
  }
}
process.stdout.write('\n');
