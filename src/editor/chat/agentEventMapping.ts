// Maps the core's AgentEvents to the chat view's UI events (pure; no vscode).
import type { AgentEvent } from '../../core/agent/events';
import type { ChatEvent, ErrorAction } from '../../shared/protocol';
import { userMessageText } from '../../shared/attachedMessage';
import { planNotice, stepNotice } from '../orchestrator/orchestratorNotices';
import { chatImagesOfEvent } from './chatImages';

function turnImages(labels: string[] | undefined, thumbnails: Array<string | null> | undefined) {
  const images = chatImagesOfEvent(labels, thumbnails);
  return images ? { images } : {};
}

export function agentEventToChatEvents(event: AgentEvent): ChatEvent[] {
  switch (event.type) {
    case 'turn_start':
      // Attached code is for the model; the panel shows the question and the chips' labels.
      // Images also come as small thumbnails (the chat is the user's record of what was sent).
      return [{ type: 'turn_start', text: userMessageText(event.message, [...(event.attachments ?? []), ...(event.images ?? [])]), ...(event.mode && { mode: event.mode }), ...turnImages(event.images, event.thumbnails) }];
    case 'round_start':
      return [{ type: 'round_start' }];
    case 'status':
      return [{ type: 'status', text: event.message }];
    case 'thinking':
      return event.text ? [{ type: 'thinking', text: event.text }] : [];
    case 'text':
      return event.text ? [{ type: 'text', text: event.text }] : [];
    case 'tool_call':
      return [{ type: 'tool_call', callId: event.id, name: event.name, args: formatArguments(event.arguments) }];
    case 'approval_request':
      return [{ type: 'approval_request', callId: event.id, title: event.title, detail: event.detail, risk: event.risk }];
    case 'approval_result':
      return [
        {
          type: 'approval_result',
          callId: event.id,
          approved: event.approved,
          ...(event.scope !== undefined && { scope: event.scope }),
          ...(event.reason !== undefined && { reason: event.reason }),
        },
      ];
    case 'tool_progress':
      return [{ type: 'tool_progress', callId: event.id, text: event.message }];
    case 'tool_result': {
      const out: ChatEvent[] = [
        { type: 'tool_result', callId: event.id, ok: event.ok, denied: !!event.denied, content: event.content, durationMs: Math.max(0, event.durationMs) },
      ];
      // The tool's transparency note ("Edited src/a.ts: +3 -1") is for the user only.
      if (event.display && event.display.trim()) out.push({ type: 'notice', text: event.display });
      return out;
    }
    case 'usage': {
      const used = Math.max(0, Math.round(event.promptTokens + event.completionTokens));
      if (event.cachedTokens === undefined || !(event.promptTokens > 0)) return [{ type: 'usage', used }];
      const prompt = Math.round(event.promptTokens);
      const cache = { prompt, cached: Math.min(prompt, Math.max(0, Math.round(event.cachedTokens))), estimated: !!event.cachedEstimated };
      return [{ type: 'usage', used, cache }];
    }
    case 'notice':
      return [{ type: 'notice', text: event.message }];
    case 'context':
      return [
        { type: 'context_limit', available: event.window },
        { type: 'usage', used: Math.max(0, Math.round(event.used)) },
      ];
    case 'compression':
      return [
        {
          type: 'notice',
          text:
            `Compressed the conversation (${event.method}): ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.messagesAffected} messages affected` +
            `${event.targetMet ? '' : ' (still above the target)'}${event.modelCalls > 0 ? `; ${event.modelCalls} model call${event.modelCalls === 1 ? '' : 's'}` : ''}` +
            `${event.indexTokensSaved ? `; index summaries saved ${event.indexTokensSaved} tokens` : ''}.`,
        },
      ];
    case 'context_window':
      return [{ type: 'context_limit', available: event.window }];
    case 'retrieval':
      // What was retrieved and why is in "What the model knows"; only the retriever's news (keywords instead
      // of vectors) goes into the chat.
      return event.notice ? [{ type: 'notice', text: event.notice }] : [];
    case 'tools_offered':
      // The meter shows the request's size; which tools were offered is in the log and the MCP Servers view.
      return [];
    case 'plan':
      // Planner/executor turns (src/core/orchestrator): the plan is also the todo list ("What the model knows"),
      // which ticks off as steps finish; the chat says what was planned and which steps did not succeed.
      return [{ type: 'notice', text: planNotice(event) }];
    case 'plan_fallback':
      // The notice that follows says why, in words.
      return [];
    case 'step_start':
      // The step's tool calls show as ordinary cards; the todo list marks it in progress.
      return [];
    case 'step_end': {
      const text = stepNotice(event);
      return text ? [{ type: 'notice', text }] : [];
    }
    case 'error':
      return [{ type: 'error', text: event.message, actions: suggestActions(event.message) }];
    case 'turn_end':
      return [{ type: 'turn_end', reason: event.reason, ...(event.result !== undefined && { result: event.result }) }];
  }
}

/** Pretty JSON for the card; a string that is not JSON (a model's broken arguments) is shown as it came. */
export function formatArguments(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  if (args === undefined) return '{}';
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/** Buttons offered under an error, guessed from its words: the core's messages name the cause. */
export function suggestActions(message: string): ErrorAction[] {
  const actions: ErrorAction[] = [];
  if (/\bmodel\b/i.test(message) && /not found|no model|pull|not loaded|unknown model|select/i.test(message)) actions.push('selectModel');
  if (/connect|refused|unreachable|could not reach|cannot reach|is .* running|timed? ?out|base ?url|host/i.test(message)) {
    actions.push('openSettings');
  }
  actions.push('showLogs');
  return actions;
}
