// The onTextReply policy: decides, for a reply without tool calls, whether the turn ends or the model is
// nudged on (work remains, refusal, empty reply, missing task_completion). Every intervention is capped
// per turn and explained by a notice.
import type { TextReplyDecision, TextReplyState } from '../agent/turnRunner';
import { isCompletionSummary } from '../analysis/completion';
import { isDeflection } from '../analysis/deflection';
import { isEmptyResponse } from '../analysis/empty';
import { isIncompleteResponse } from '../analysis/incomplete';
import { parseResponsePolicyConfig, type ResponsePolicyConfig, type ResponsePolicyConfigInput } from '../analysis/policyConfig';

export interface ResponsePolicyDeps {
  /** Texts of the todos still open (tracker todos not done). */
  openTodos?: () => readonly string[];
  /** Names of the tools offered this turn, to know whether the completion tool exists. */
  offeredToolNames?: () => readonly string[];
  /**
   * Whether a refusal can be wrong. False when only read tools are offered (an untrusted workspace):
   * "I cannot edit files" is then the truth, not a deflection. Default: true.
   */
  canActOnDeflection?: () => boolean;
  /** Whether a tool only reads. A turn that only read ends with a plain answer (a question answered). */
  isReadOnlyTool?: (name: string) => boolean;
}

export interface ResponsePolicyCounters {
  continuation: number;
  deflection: number;
  empty: number;
  reminders: number;
}

export interface ResponsePolicy {
  readonly config: ResponsePolicyConfig;
  onTextReply(state: TextReplyState): TextReplyDecision;
  /** Forget the counters (a new turn). Also happens by itself when the round number goes back. */
  reset(): void;
  counters(): ResponsePolicyCounters;
}

export function createResponsePolicy(config: ResponsePolicyConfigInput | ResponsePolicyConfig = {}, deps: ResponsePolicyDeps = {}): ResponsePolicy {
  const cfg = parseResponsePolicyConfig(config);
  const msg = cfg.messages;
  let counters: ResponsePolicyCounters = { continuation: 0, deflection: 0, empty: 0, reminders: 0 };
  let awaitingSummary = false;
  let lastRound = -1;

  const reset = () => {
    counters = { continuation: 0, deflection: 0, empty: 0, reminders: 0 };
    awaitingSummary = false;
    lastRound = -1;
  };

  const onTextReply = (state: TextReplyState): TextReplyDecision => {
    // Rounds only increase within a turn, so a smaller or equal round number means a new turn.
    if (state.round <= lastRound) reset();
    lastRound = state.round;
    const { reply } = state;

    if (awaitingSummary) {
      awaitingSummary = false;
      if (isEmptyResponse(reply)) return { action: 'end', result: msg.noAnswer, notice: 'The model gave no summary either; ending the turn.' };
      return { action: 'end' };
    }

    if (isEmptyResponse(reply)) {
      if (counters.empty < cfg.maxEmptyRetries) {
        counters.empty++;
        return { action: 'continue', nudge: msg.empty, notice: `The model returned an empty reply; asked it again (${counters.empty}/${cfg.maxEmptyRetries}).` };
      }
      if (cfg.summaryAfterEmpty) {
        awaitingSummary = true;
        return {
          action: 'continue',
          nudge: msg.summary,
          notice: 'The model kept returning empty replies; asked it for a summary of what it did, without tools.',
          withoutTools: true,
        };
      }
      return { action: 'end', result: msg.noAnswer, notice: 'The model kept returning empty replies; ending the turn.' };
    }

    // Without tools the model cannot do more than answer, so nothing else is worth a nudge.
    if (!state.toolsOffered) return { action: 'end' };

    if ((deps.canActOnDeflection?.() ?? true) && isDeflection(reply.text)) {
      if (counters.deflection < cfg.maxDeflectionRetries) {
        counters.deflection++;
        return {
          action: 'continue',
          nudge: msg.deflection,
          notice: `The model declined to use its tools; told it to continue with them (${counters.deflection}/${cfg.maxDeflectionRetries}).`,
        };
      }
      return { action: 'end', notice: `Accepted the model's reply after ${cfg.maxDeflectionRetries} attempts to make it use its tools.` };
    }

    const openTodos = deps.openTodos?.() ?? [];
    if (isIncompleteResponse(reply.text, { openTodos: openTodos.length })) {
      if (counters.continuation < cfg.maxContinuationNudges) {
        counters.continuation++;
        const todoNote = openTodos.length ? `\nOpen todos:\n${openTodos.map((t) => `- ${t}`).join('\n')}` : '';
        const why = openTodos.length ? `${openTodos.length} todo(s) are still open` : 'its reply says work remains';
        return {
          action: 'continue',
          nudge: msg.continuation + todoNote,
          notice: `Nudged the model to continue (${counters.continuation}/${cfg.maxContinuationNudges}): ${why}.`,
        };
      }
      return { action: 'end', notice: `The model still says work remains after ${cfg.maxContinuationNudges} nudges; ending the turn with its last reply.` };
    }

    if (isCompletionSummary(reply.text)) return { action: 'end' };

    // A plain answer in the first round is a conversational reply (a question answered), not unfinished work.
    if (state.round === 0) return { action: 'end' };
    // Only reading before answering is answering a question: a reminder would cost a model call for nothing.
    const used = [...(state.usedInTurn ?? [])];
    if (deps.isReadOnlyTool && used.length > 0 && used.every((name) => deps.isReadOnlyTool!(name))) return { action: 'end' };
    const offered = deps.offeredToolNames?.() ?? [];
    if (offered.includes(cfg.completionToolName) && cfg.maxCompletionReminders > 0) {
      if (counters.reminders < cfg.maxCompletionReminders) {
        counters.reminders++;
        return {
          action: 'continue',
          nudge: msg.completionReminder.replaceAll('task_completion', cfg.completionToolName),
          notice: `Reminded the model to call ${cfg.completionToolName} when the task is done (${counters.reminders}/${cfg.maxCompletionReminders}).`,
        };
      }
      return { action: 'end', notice: `The model answered without calling ${cfg.completionToolName}; accepted its reply.` };
    }
    return { action: 'end' };
  };

  return { config: cfg, onTextReply, reset, counters: () => ({ ...counters }) };
}
