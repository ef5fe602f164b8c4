// The tool probe: one tiny task ("what is the first line of hello.txt?") with one tool, read the way a turn reads
// a reply (src/core/toolProtocol). It tells a model that calls the tool through the API from one that writes the
// call as text (JSON or `<tool>` markup) and from one that calls nothing. The tool is never run.
import type { ToolCall, ToolDefinition } from '../messages';
import { isToolsUnsupportedError, type ToolProtocol } from '../toolProtocol/protocolSetting';
import { streamProtocolReply, type ReplySink } from '../toolProtocol/replyStreamer';
import { SYNTAX_NAMES, type CallSyntaxId } from '../toolProtocol/callSyntaxes';
import { renderTextProtocolPart } from '../toolProtocol/textPrompt';
import { toTextProtocolMessages } from '../toolProtocol/textMessages';
import { ToolIndex } from '../toolProtocol/toolIndex';
import type { CallRecord, ObservedProvider } from './observedCall';
import type { ProbeOutcome } from './report';
import { standaloneRequest } from '../prompt/requestLayout';
import { errorMessage } from '../../shared/format';

export const PROBE_FILE = 'hello.txt';

export const PROBE_TOOL: ToolDefinition = {
  name: 'read_file',
  description: 'Read a text file of the workspace and return its content.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'The file, relative to the workspace.' } },
    required: ['path'],
  },
};

export const PROBE_SYSTEM = "You are a coding assistant working in the user's workspace. Use the tools you are given to look at files before you answer.";
export const PROBE_TASK = `What is the first line of the file ${PROBE_FILE}? Read it with the read_file tool first; do not guess.`;

/** Enough for a call or a short answer; a model that rambles past it did not call the tool. */
const PROBE_MAX_TOKENS = 400;

export interface ProbeResult {
  outcome: ProbeOutcome;
  /** What the model did, in a few words (for the report). */
  /** The syntax the model wrote its call in, when it wrote it as text (src/core/toolProtocol/callSyntaxes.ts). */
  syntax?: CallSyntaxId;
  detail: string;
  record?: CallRecord;
  error?: unknown;
}

export interface ProbeOptions {
  model: string;
  contextSize?: number;
  signal: AbortSignal;
}

const silent: ReplySink = { text: () => undefined, thinking: () => undefined, status: () => undefined };

export async function runToolProbe(provider: ObservedProvider, mode: ToolProtocol, options: ProbeOptions): Promise<ProbeResult> {
  const index = new ToolIndex([PROBE_TOOL]);
  const base = standaloneRequest(PROBE_SYSTEM, PROBE_TASK);
  const messages = mode === 'xml' ? toTextProtocolMessages(base, { systemPart: renderTextProtocolPart(index) }) : base;
  let n = 0;
  try {
    const reply = await streamProtocolReply(
      {
        provider,
        model: options.model,
        messages,
        signal: options.signal,
        // A short, direct answer: the probe asks about calling, not thinking.
        think: false,
        temperature: 0,
        maxTokens: PROBE_MAX_TOKENS,
        ...(options.contextSize !== undefined && { contextSize: options.contextSize }),
      },
      { mode, index, validate: isProbeCall, newId: () => `probe_${++n}` },
      silent,
    );
    const record = provider.last;
    const withRecord = (outcome: ProbeOutcome, detail: string): ProbeResult => ({ outcome, detail, ...(record && { record }) });
    const good = reply.toolCalls.some(isProbeCall);
    const native = record?.nativeCalls ?? 0;
    if (mode === 'native' && native > 0) {
      return good ? withRecord('native', 'called read_file through the API') : withRecord('bad_call', `called ${callNames(reply.toolCalls)} through the API, not read_file with a path`);
    }
    const syntax = reply.syntaxes[0];
    const withSyntax = (result: ProbeResult): ProbeResult => (syntax ? { ...result, syntax } : result);
    if (reply.toolCalls.length > 0) {
      const how = syntax === 'json' ? 'as JSON in its answer' : syntax && syntax !== 'text-protocol' ? `as text in its answer (${SYNTAX_NAMES[syntax]})` : 'as tool markup in its answer';
      if (!good) return withSyntax(withRecord('bad_call', `wrote ${callNames(reply.toolCalls)} ${how}, not read_file with a path`));
      return withSyntax(withRecord('text', mode === 'xml' && syntax === 'text-protocol' ? 'wrote a <tool> block calling read_file' : `wrote the read_file call ${how}`));
    }
    if (reply.protocolErrors.length > 0) return withSyntax(withRecord('bad_call', `wrote a tool call as text that could not be read: ${reply.protocolErrors[0]!.message}`));
    return withRecord('none', `answered without calling the tool: "${clip(reply.text || reply.thinking)}"`);
  } catch (err) {
    if (options.signal.aborted) throw err;
    if (isToolsUnsupportedError(err)) return { outcome: 'rejected', detail: 'the server refused tools for this model', error: err };
    const message = errorMessage(err);
    return { outcome: 'error', detail: message, error: err, ...(provider.last && { record: provider.last }) };
  }
}

/** The offered tool, with a path. */
export function isProbeCall(call: ToolCall): boolean {
  if (call.name !== PROBE_TOOL.name) return false;
  let args: unknown = call.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return false;
    }
  }
  const path = (args as { path?: unknown } | null)?.path;
  return typeof path === 'string' && path.trim() !== '';
}

function callNames(calls: readonly ToolCall[]): string {
  return [...new Set(calls.map((c) => c.name))].join(', ') || 'nothing';
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}…` : one || '(empty)';
}
