// Measures the default system prompt with the built-in tools, and keeps it within 2,000 tokens: small local
// models run in 4k–8k windows, and the conversation needs the rest. Prints the sizes for the README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeSystemPrompt } from '../../../src/core/prompt/systemPromptBuilder';
import { createBuiltinTools } from '../../../src/core/tools/builtin/index';
import { toDefinition } from '../../../src/core/tools/registry';
import { estimateToolDefinitionTokens } from '../../../src/core/tokens';

const system = { os: 'Linux', shell: 'bash', workspaceFolders: ['/home/user/project'] };
const BUDGET = 2000;

test('default prompt + built-in tool definitions fit in 2,000 tokens in both tool protocols', (t) => {
  const definitions = createBuiltinTools().map(toDefinition);
  const native = composeSystemPrompt({ system, loopBreakingTools: true, toolProtocol: 'native', tools: definitions });
  const toolTokens = estimateToolDefinitionTokens(definitions);
  const xml = composeSystemPrompt({ system, loopBreakingTools: true, toolProtocol: 'xml', tools: definitions });
  const rows = [
    ['native (tools sent through the API)', native.tokens, toolTokens, native.tokens + toolTokens],
    ['xml (tools listed in the prompt)', xml.tokens, 0, xml.tokens],
  ] as const;
  t.diagnostic(`${definitions.length} built-in tools`);
  for (const [mode, prompt, tools, total] of rows) t.diagnostic(`${mode}: prompt ${prompt} + tool definitions ${tools} = ${total} tokens`);
  console.log(`\nSystem prompt size (estimated tokens, ${definitions.length} built-in tools):`);
  console.table(rows.map(([mode, prompt, tools, total]) => ({ mode, prompt, tools, total })));
  assert.ok(native.tokens + toolTokens <= BUDGET, `native: ${native.tokens + toolTokens} tokens`);
  assert.ok(xml.tokens <= BUDGET, `xml: ${xml.tokens} tokens`);
  // xml lists the same tools far more compactly than their JSON Schemas.
  assert.ok(xml.tokens < native.tokens + toolTokens);
});
