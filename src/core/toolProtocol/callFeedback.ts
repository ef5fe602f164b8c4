// The correction for a call written as text that could not be read, in native mode: it names the syntax expected
// (a native tool call through the API), with an example of the arguments. The text protocol has its own
// (toolBlockFeedback: `<tool>` blocks).
import { syntaxLabel } from './callSyntaxes';
import type { ToolBlockError } from './toolBlock';
import type { ToolIndex } from './toolIndex';
import type { CallSyntaxId } from './writtenCalls';

export function nativeCallFeedback(errors: readonly ToolBlockError[], index: ToolIndex, syntaxes: readonly CallSyntaxId[]): string {
  const lines = errors.map((e) => `- ${e.message}`);
  const tool = index.tools[0];
  const example = tool ? ` For example, call ${tool.name} with the arguments ${exampleArguments(tool.definition.parameters)}.` : '';
  const written = syntaxes.filter((s) => s !== 'json' && s !== 'text-protocol');
  const own = written.length ? ` If you write the call as text, write it whole in ${syntaxLabel(written[0]!)}.` : '';
  return `Your tool call could not be run:\n${lines.join('\n')}\nMake each call a native tool call: the tool's exact name and its arguments as one JSON object.${example}${own}`;
}

function exampleArguments(parameters: Record<string, unknown>): string {
  const schema = parameters as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const type = schema.properties?.[key]?.type;
    args[key] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : '…';
  }
  return JSON.stringify(args);
}
