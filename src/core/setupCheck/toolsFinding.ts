// The tool-calling verdict from what the server says and what the probes showed, and the protocol a session uses.
import type { ChatProvider, ServerKind } from '../provider';
import type { ToolProtocol, ToolProtocolSetting } from '../toolProtocol/protocolSetting';
import { isFamilySyntax, SYNTAX_NAMES } from '../toolProtocol/callSyntaxes';
import type { ToolsFinding } from './report';
import type { ProbeResult } from './toolProbe';

export interface ToolsInputs {
  providerId: ChatProvider['id'];
  kind?: ServerKind;
  model: string;
  serverSays: ToolsFinding['serverSays'];
  setting: ToolProtocolSetting;
  native?: ProbeResult;
  text?: ProbeResult;
}

/** The protocol `auto` settles on after the probes; undefined when the probes could not tell. */
export function protocolFromProbes(native: ProbeResult | undefined, text: ProbeResult | undefined): ToolProtocol | undefined {
  if (native && (native.outcome === 'native' || native.outcome === 'bad_call')) return 'native';
  // Its own family's call syntax, printed with the tools offered natively, is read as calls: no need for <tool> blocks.
  if (native?.outcome === 'text' && isFamilySyntax(native.syntax)) return 'native';
  if (native?.outcome === 'error' || (!native && !text)) return undefined;
  // The native probe did not call the tool (or the server refused tools): text-based calls from the start.
  return text?.outcome === 'error' ? undefined : 'xml';
}

export function toolsFinding(input: ToolsInputs): ToolsFinding {
  const { native, text, model, setting } = input;
  const callSyntax = native?.syntax ?? text?.syntax;
  const base = {
    serverSays: input.serverSays,
    setting,
    ...(native && { nativeProbe: native.outcome }),
    ...(text && { textProbe: text.outcome }),
    ...(callSyntax && { callSyntax }),
  };
  const details: string[] = [];
  if (input.serverSays !== 'unknown') details.push(`The server says ${model} ${input.serverSays === 'yes' ? 'supports' : 'does not support'} tool calling.`);
  else details.push('The server does not say whether the model supports tool calling.');
  if (native) details.push(`Native probe: ${native.detail}.`);
  if (text) details.push(`Text probe (<tool> blocks): ${text.detail}.`);
  const auto = protocolFromProbes(native, text);
  const protocol: ToolProtocol | undefined = setting === 'auto' ? auto : setting;
  const withProtocol = protocol ? { protocol } : {};
  if (protocol) details.push(`Local Harness uses ${protocol === 'native' ? 'native tool calls' : 'text-based tool calls (<tool> blocks)'}${setting === 'auto' ? '' : ' (your tool protocol setting)'}.`);

  if (native?.outcome === 'text' && isFamilySyntax(native.syntax) && setting !== 'xml') {
    return {
      ...base,
      ...withProtocol,
      verdict: 'info',
      summary: `${model} writes its tool calls as text in its own format (${SYNTAX_NAMES[native.syntax!]}) instead of through the API; Local Harness reads them as calls.`,
      details,
      fix: nativeToolsFix(input),
    };
  }
  if (native?.outcome === 'error') {
    return { ...base, ...withProtocol, verdict: 'failed', summary: `${model} did not answer the tool probe: ${native.detail}`, details, reason: 'the model does not answer' };
  }
  if (native?.outcome === 'native' || native?.outcome === 'bad_call') {
    const clean = native.outcome === 'native';
    const forcedText = setting === 'xml';
    return {
      ...base,
      ...withProtocol,
      verdict: clean && !forcedText ? 'ok' : 'info',
      summary: clean ? `${model} calls tools natively.` : `${model} calls tools natively, but the probe's call was not right (${native.detail}); Local Harness checks every call and asks again.`,
      details,
      ...(forcedText && { fix: 'Your tool protocol setting forces text-based calls although native calls work: set localharness.agent.toolProtocol to "auto" (CLI --tool-protocol auto).' }),
    };
  }
  const textWorks = text?.outcome === 'text' || text?.outcome === 'bad_call';
  if (!textWorks) {
    return {
      ...base,
      ...withProtocol,
      verdict: 'failed',
      summary: `${model} did not call the tool, natively or as text: it can chat, but not work on files as an agent.`,
      details,
      fix: 'Pick a model trained for tool use (for example qwen3, qwen2.5-coder or llama3.1, 7B or larger).',
      reason: 'it does not call tools',
    };
  }
  const why =
    native?.outcome === 'text'
      ? `${model} writes tool calls as text instead of calling them through the API`
      : native?.outcome === 'rejected' || input.serverSays === 'no'
        ? `The server does not offer tool calling for ${model}`
        : `${model} answered the native probe without calling the tool`;
  const nativeForced = setting === 'native';
  return {
    ...base,
    ...withProtocol,
    verdict: 'limited',
    summary: `${why}; it does call tools as text (<tool> blocks)${nativeForced ? ', but your setting forces native tool calls' : ', so Local Harness uses those from the start'}.`,
    details,
    fix: nativeForced ? 'Set localharness.agent.toolProtocol to "auto" (CLI --tool-protocol auto) to use text-based tool calls with this model.' : nativeToolsFix(input),
    reason: 'tool calls as text',
  };
}

function nativeToolsFix(input: ToolsInputs): string {
  switch (input.kind) {
    case 'llamacpp':
      return 'For native tool calls, start llama-server with --jinja (the chat template then turns the model\'s calls into API tool calls).';
    case 'lmstudio':
      return 'For native tool calls, use a model LM Studio marks with tool use support.';
    case 'vllm':
      return 'For native tool calls, start vLLM with --enable-auto-tool-choice and the --tool-call-parser for this model family.';
    default:
      return input.providerId === 'ollama'
        ? 'For native tool calls, use a model Ollama lists with the "tools" capability (ollama show MODEL).'
        : 'For native tool calls, enable tool calling for this model on the server.';
  }
}
