// createTurnHooks: the one factory that plugs the weak-model helpers into the turn runner's hooks —
// response policy (onTextReply), repetition and tool-format feedback (onToolCalls), and a callModel that
// applies the tool protocol and retries / falls back across models.
import type { CallModelOptions, TextReplyDecision, TextReplyState, ToolCallsDecision, ToolCallsState, TurnHooks } from '../agent/turnRunner';
import type { RoundReply } from '../agent/round';
import type { EventBus } from '../agent/events';
import type { ChatMessage } from '../messages';
import type { ChatProvider } from '../provider';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel } from '../tools/tool';
import { RepetitionDetector } from '../analysis/repetition';
import { claimedMissingTools } from '../analysis/missingTools';
import { createResponsePolicy, type ResponsePolicy } from './responsePolicy';
import { isToolsUnsupportedError, resolveToolProtocol, type CheckedToolProtocol, type ToolProtocol } from '../toolProtocol/protocolSetting';
import { streamProtocolReply, type ProtocolReply, type ReplySink } from '../toolProtocol/replyStreamer';
import { renderTextProtocolPart } from '../toolProtocol/textPrompt';
import { toTextProtocolMessages } from '../toolProtocol/textMessages';
import { toolBlockFeedback, type ToolBlockError } from '../toolProtocol/toolBlock';
import { nativeCallFeedback } from '../toolProtocol/callFeedback';
import { SYNTAX_NAMES, type CallSyntaxId } from '../toolProtocol/callSyntaxes';
import { cutGiveUp, cutNotice, cutNudge, MAX_CUT_RETRIES, raisedOutputLimit, type Cut } from './outputLimit';
import { ToolIndex, localNaming, type ToolNaming } from '../toolProtocol/toolIndex';
import type { Sleep } from './backoff';
import type { ModelEndpoint } from './failureText';
import { ResilientCaller } from './resilientCaller';
import { parseTurnHooksSettings, type TurnHooksSettings, type TurnHooksSettingsInput } from './turnHooksSettings';

export interface TurnHooksOptions {
  provider: ChatProvider;
  model: string;
  /** Tried in order when the primary fails after its retries. */
  fallbacks?: readonly ModelEndpoint[];
  registry: ToolRegistry;
  allowedRisks?: readonly RiskLevel[];
  bus: EventBus;
  /** Validated with zod; throws a readable Error on bad values. */
  settings?: TurnHooksSettingsInput;
  think?: boolean;
  contextSize?: number;
  temperature?: number;
  maxTokens?: number;
  /**
   * Tokens the window leaves for the reply to the request about to be sent (the context manager's measure), when
   * known: a raised output limit stays within it, since some servers (vLLM) refuse a prompt plus `max_tokens` past
   * the window.
   */
  replyRoom?: () => number | undefined;
  /** Texts of open todos, so a reply that stops with todos open is nudged on. */
  openTodos?: () => readonly string[];
  /** A setup check's finding for this provider and model, consulted when the setting is `auto`. */
  checkedProtocol?: CheckedToolProtocol;
  /** How registry names are shown in `<tool>` blocks (MCP tools under their server). Default: all "local". */
  toolNaming?: ToolNaming;
  /** Your own prepareMessages (compression, eviction), passed through unchanged. */
  prepareMessages?: TurnHooks['prepareMessages'];
  /** Your own selectTools (the tool pre-filter), passed through unchanged. */
  selectTools?: TurnHooks['selectTools'];
  /**
   * Offers the registered tools that best match names the model asked for but was not given (a reply saying it
   * lacks `list_directory`, a call to `rename_file`); returns the names now offered ([] when nothing matches).
   */
  handOverTools?: (names: readonly string[]) => string[];
  /** Injected for tests; defaults to a real, abortable timer. */
  sleep?: Sleep;
}

export interface TurnHooksBundle extends TurnHooks {
  callModel(round: number, messages: ChatMessage[], signal: AbortSignal, options?: CallModelOptions): Promise<RoundReply>;
  onTextReply(state: TextReplyState): TextReplyDecision;
  onToolCalls(state: ToolCallsState): ToolCallsDecision;
  readonly settings: TurnHooksSettings;
  readonly policy: ResponsePolicy;
  /** The protocol in use (resolves `auto` once by asking the server about the model). Use it to build the prompt. */
  resolveToolProtocol(signal: AbortSignal): Promise<ToolProtocol>;
}

/** Hand-overs of missing tools per turn: a model that keeps asking for tools that do not help is not nudged forever. */
const MAX_HANDOVERS = 3;

const ERROR_LABELS: Record<ToolBlockError['kind'], string> = {
  parse_error: 'invalid JSON',
  missing_field: 'a missing field',
  invalid_field: 'an invalid field',
  tool_not_found: 'an unknown tool',
};

export function createTurnHooks(options: TurnHooksOptions): TurnHooksBundle {
  const settings = parseTurnHooksSettings(options.settings ?? {});
  const { bus, registry } = options;
  const naming = options.toolNaming ?? localNaming;
  const notice = (message: string) => bus.emit({ type: 'notice', message });
  const offeredDefinitions = () => registry.definitions(options.allowedRisks);
  const policy = createResponsePolicy(settings.policy, {
    ...(options.openTodos && { openTodos: options.openTodos }),
    offeredToolNames: () => offeredDefinitions().map((d) => d.name),
    isReadOnlyTool: (name) => registry.get(name)?.risk === 'read' && !registry.get(name)?.loopBreaking,
    canActOnDeflection: () => !options.allowedRisks || options.allowedRisks.includes('write') || options.allowedRisks.includes('execute'),
  });
  const sink: ReplySink = {
    text: (text) => bus.emit({ type: 'text', text }),
    thinking: (text) => bus.emit({ type: 'thinking', text }),
    status: (message, reading) => bus.emit({ type: 'status', message, ...(reading && { reading }) }),
  };
  const caller = new ResilientCaller({
    endpoints: [{ provider: options.provider, model: options.model }, ...(options.fallbacks ?? [])],
    retry: settings.retry,
    sink,
    notice,
    ...(options.sleep && { sleep: options.sleep }),
  });
  const repetition = new RepetitionDetector(settings.repetitionThreshold);
  const validate = (call: Parameters<ToolRegistry['parse']>[0]) => registry.parse(call, options.allowedRisks).ok;

  let protocol: Promise<ToolProtocol> | undefined;
  let forcedXml = false;
  // Said on the first model call, inside a turn, even when the protocol was resolved before the turn began.
  let protocolNotice: string | undefined;
  let lastErrors: ToolBlockError[] = [];
  let lastIndex = new ToolIndex([], naming);
  let lastMode: ToolProtocol = 'native';
  let lastSyntaxes: CallSyntaxId[] = [];
  /** The syntax the setup check saw this model print its calls in, for the correction's wording. */
  let checkedSyntax: CallSyntaxId | undefined;
  let corrections = 0;
  let handovers = 0;
  // A reply cut at the output limit: the raised limit for the rest of the turn, and how often it happened.
  let lastCut: { cut: Cut; generated: number | undefined } | undefined;
  let outputLimit: number | undefined;
  let cuts = 0;

  const decideProtocol = async (signal: AbortSignal): Promise<ToolProtocol> => {
    if (settings.toolProtocol === 'auto' && options.checkedProtocol) {
      // A stored report that cannot be read is no report: the server's model info decides.
      const checked = await options.checkedProtocol(options.provider, options.model).catch(() => undefined);
      if (checked) {
        protocolNotice = checked.notice;
        checkedSyntax = checked.callSyntax;
        return checked.protocol;
      }
    }
    const mode = await resolveToolProtocol(settings.toolProtocol, options.provider, options.model, signal);
    if (settings.toolProtocol === 'auto' && mode === 'xml') protocolNotice = 'The model does not report native tool calling; using text-based tool calls (<tool> blocks).';
    return mode;
  };
  const resolveProtocol = (signal: AbortSignal): Promise<ToolProtocol> => {
    if (forcedXml) return Promise.resolve('xml');
    protocol ??= decideProtocol(signal).catch((err: unknown) => {
      protocol = undefined; // a cancelled lookup must not stick
      throw err;
    });
    return protocol;
  };

  const beginTurn = () => {
    caller.reset();
    repetition.reset();
    lastErrors = [];
    corrections = 0;
    handovers = 0;
    lastCut = undefined;
    outputLimit = undefined;
    cuts = 0;
  };

  /** Tools the model named but was not offered, offered now; undefined when there is nothing to hand over. */
  const handOver = (names: readonly string[]): string[] | undefined => {
    if (!options.handOverTools || handovers >= MAX_HANDOVERS || names.length === 0) return undefined;
    const found = options.handOverTools(names);
    if (found.length === 0) return undefined;
    handovers++;
    return found;
  };
  const quoted = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

  /** `index`: the tools this request offers (described to the model); `known`: every tool a call may name. */
  const attempt = async (
    mode: ToolProtocol,
    endpoint: ModelEndpoint,
    out: ReplySink,
    messages: ChatMessage[],
    index: ToolIndex,
    known: ToolIndex,
    signal: AbortSignal,
  ): Promise<ProtocolReply> => {
    const sent = mode === 'xml' ? toTextProtocolMessages(messages, { naming, systemPart: renderTextProtocolPart(index) }) : messages;
    return streamProtocolReply(
      {
        provider: endpoint.provider,
        model: endpoint.model,
        messages: sent,
        signal,
        ...(options.think !== undefined && { think: options.think }),
        ...(options.contextSize !== undefined && { contextSize: options.contextSize }),
        ...(options.temperature !== undefined && { temperature: options.temperature }),
        ...((outputLimit ?? options.maxTokens) !== undefined && { maxTokens: outputLimit !== undefined ? withinRoom(outputLimit) : options.maxTokens }),
      },
      // A weak model may call a tool it saw earlier but that this request did not offer: it still runs.
      { mode, index, known, validate: settings.recoverJsonToolCalls ? validate : () => false },
      out,
    );
  };

  /** A raised limit, no more than the window leaves (a reply cut again is told to split its work; a refused request ends the turn). */
  const withinRoom = (limit: number): number => {
    const room = options.replyRoom?.();
    return room !== undefined && room > 0 ? Math.min(limit, room) : limit;
  };

  const callModel = async (round: number, messages: ChatMessage[], signal: AbortSignal, callOptions?: CallModelOptions): Promise<RoundReply> => {
    if (round === 0) beginTurn();
    const all = offeredDefinitions();
    const index = new ToolIndex(callOptions?.tools ?? all, naming);
    // Any registered tool may be named, even on a request without tools (a final summary request): a model that
    // answers it with a call has recovered, and the call runs through the approval gate like any other.
    const known = !callOptions?.tools || callOptions.tools.length === all.length ? index : new ToolIndex(all, naming);
    let mode = await resolveProtocol(signal);
    if (protocolNotice) {
      notice(protocolNotice);
      protocolNotice = undefined;
    }
    const reply = await caller.call(async (endpoint, out, sig) => {
      try {
        return await attempt(mode, endpoint, out, messages, index, known, sig);
      } catch (err) {
        // The server says this model takes no tools: switch to text-based calls for the rest of the session.
        if (settings.toolProtocol !== 'auto' || mode !== 'native' || !isToolsUnsupportedError(err)) throw err;
        forcedXml = true;
        mode = 'xml';
        notice('The server says this model does not support tool calling; switched to text-based tool calls (<tool> blocks).');
        return attempt(mode, endpoint, out, messages, index, known, sig);
      }
    }, signal);
    lastErrors = reply.protocolErrors;
    lastIndex = index;
    lastMode = mode;
    lastSyntaxes = reply.syntaxes;
    if (reply.recovered.length) {
      const families = reply.syntaxes.filter((s) => s !== 'json' && s !== 'text-protocol').map((s) => SYNTAX_NAMES[s]);
      const how = families.length ? ` (${families.join(', ')})` : '';
      notice(`The model wrote a tool call as text${how} instead of calling it; running it (${reply.recovered.join(', ')}).`);
    }
    lastCut = undefined;
    if (reply.cut) {
      const generated = reply.usage?.completionTokens;
      lastCut = { cut: reply.cut, generated };
      cuts++;
      outputLimit = raisedOutputLimit(outputLimit ?? options.maxTokens, generated, options.contextSize);
    }
    if (reply.usage) bus.emit({ type: 'usage', ...reply.usage });
    return {
      text: reply.text,
      thinking: reply.thinking,
      toolCalls: reply.toolCalls,
      finishReason: reply.finishReason,
      ...(reply.usage && { usage: reply.usage }),
    };
  };

  const onToolCalls = (state: ToolCallsState): ToolCallsDecision => {
    const verdict = repetition.observe(state.calls);
    const errors = lastErrors;
    lastErrors = [];
    if (verdict.kind === 'stop') {
      return {
        action: 'stop',
        notice: `The model called ${verdict.name} with the same arguments ${verdict.count} times in a row, even after being told; stopped the turn.`,
        message: `Stopped: the model kept repeating the same ${verdict.name} call (${verdict.count} times in a row) instead of making progress. Try rephrasing the request, splitting it into smaller steps, or another model.`,
      };
    }
    const notices: string[] = [];
    const nudges: string[] = [];
    // A call to a tool that does not exist (rename_file): the closest real ones are offered from the next step.
    const unknown = state.calls.map((c) => c.name).filter((name) => !registry.get(name));
    const offered = handOver(unknown);
    if (offered) {
      notices.push(`The model called ${quoted(unknown)}, which does not exist; offered ${quoted(offered)} instead.`);
      nudges.push(`There is no tool ${quoted(unknown)}. Use ${quoted(offered)} instead (offered to you now).`);
    }
    if (errors.length) {
      notices.push(`Some of the model's tool calls could not be read (${describeErrors(errors)}); sent it a correction.`);
      nudges.push(feedback(errors));
    }
    if (verdict.kind === 'warn') {
      notices.push(`The model called ${verdict.name} with the same arguments ${verdict.count} times in a row; told it to change approach.`);
      nudges.push(
        `You have called ${verdict.name} with the same arguments ${verdict.count} times in a row; the result will not change. Use the result you already have, try a different approach, or finish with a summary. Repeating the call again stops the task.`,
      );
    }
    return { action: 'run', ...(notices.length && { notice: notices.join(' ') }), ...(nudges.length && { nudge: nudges.join('\n\n') }) };
  };

  /** The correction names the syntax expected: `<tool>` blocks in the text protocol, else a native call. */
  const feedback = (errors: readonly ToolBlockError[]) =>
    lastMode === 'xml'
      ? toolBlockFeedback(errors, lastIndex)
      : nativeCallFeedback(errors, lastIndex, checkedSyntax ? [...lastSyntaxes, checkedSyntax] : lastSyntaxes);

  const onTextReply = (state: TextReplyState): TextReplyDecision => {
    const errors = lastErrors;
    lastErrors = [];
    // A cut reply is never the answer: the model is told and goes on (with a larger limit), or the turn stops.
    const cut = lastCut;
    lastCut = undefined;
    if (cut) {
      if (cuts > MAX_CUT_RETRIES) return { action: 'end', error: cutGiveUp(cut.generated) };
      return { action: 'continue', nudge: cutNudge(cut.cut), notice: cutNotice(cut.cut, cut.generated, outputLimit!, cuts) };
    }
    if (errors.length && corrections < settings.maxToolFormatCorrections) {
      corrections++;
      return {
        action: 'continue',
        nudge: feedback(errors),
        notice: `The model's tool call could not be read (${describeErrors(errors)}); sent it a correction (${corrections}/${settings.maxToolFormatCorrections}).`,
      };
    }
    // "None of the offered tools provides `list_directory`": a deflection, never a completion. Offer the tool and go on.
    const claimed = state.toolsOffered ? claimedMissingTools(state.reply.text) : [];
    const found = handOver(claimed);
    if (found) {
      return {
        action: 'continue',
        nudge: `${quoted(found)} ${found.length === 1 ? 'is' : 'are'} available to you now. Use ${found.length === 1 ? 'it' : 'them'} to carry on with the task, and do not stop until it is done.`,
        notice: `The model said it lacks ${quoted(claimed)}; offered ${quoted(found)} and asked it to go on.`,
      };
    }
    return policy.onTextReply(state);
  };

  return {
    settings,
    policy,
    callModel,
    onTextReply,
    onToolCalls,
    resolveToolProtocol: resolveProtocol,
    ...(options.prepareMessages && { prepareMessages: options.prepareMessages }),
    ...(options.selectTools && { selectTools: options.selectTools }),
  };
}


function describeErrors(errors: readonly ToolBlockError[]): string {
  return [...new Set(errors.map((e) => ERROR_LABELS[e.kind]))].join(', ');
}
