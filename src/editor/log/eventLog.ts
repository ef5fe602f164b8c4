// One log line per meaningful agent event: tool calls, approvals, results, errors, turn boundaries.
// Streaming text/thinking are not logged (the panel shows them; the log stays readable).
import type { AgentEvent } from '../../core/agent/events';
import type { LogLevel } from './logger';

export interface LogLine {
  level: LogLevel;
  message: string;
}

const ARGS_PREVIEW = 300;
const RESULT_PREVIEW = 300;

export function describeEventForLog(event: AgentEvent): LogLine | undefined {
  switch (event.type) {
    case 'turn_start':
      return { level: 'info', message: `turn ${event.turnId.slice(0, 8)} started (${event.message.length} characters from the user)` };
    case 'round_start':
      return { level: 'debug', message: `round ${event.round + 1}` };
    case 'status':
      return { level: 'debug', message: `status: ${event.message}` };
    case 'tool_call':
      return { level: 'info', message: `tool call ${event.name} ${preview(stringify(event.arguments), ARGS_PREVIEW)}` };
    case 'approval_request':
      return { level: 'info', message: `approval asked for ${event.name} (${event.risk}): ${event.title}` };
    case 'approval_result':
      return event.approved
        ? { level: 'info', message: `approval granted for ${event.name} (${event.scope ?? 'once'})` }
        : { level: 'warn', message: `approval denied for ${event.name}: ${event.reason ?? 'denied'}` };
    case 'tool_progress':
      return { level: 'trace', message: `${event.name}: ${event.message}` };
    case 'tool_result': {
      const outcome = event.denied ? 'denied' : event.ok ? 'ok' : 'failed';
      const base = `tool ${event.name} ${outcome} in ${event.durationMs} ms (${event.content.length} characters)`;
      return event.ok ? { level: 'info', message: base } : { level: 'warn', message: `${base}: ${preview(event.content, RESULT_PREVIEW)}` };
    }
    case 'usage':
      return {
        level: 'debug',
        message:
          `usage: ${event.promptTokens} prompt + ${event.completionTokens} completion tokens` +
          (event.cachedTokens !== undefined ? `; re-read ${Math.max(0, event.promptTokens - event.cachedTokens)}, ${event.cachedTokens} from the server's cache${event.cachedEstimated ? ' (estimated)' : ''}` : ''),
      };
    case 'notice':
      return { level: 'info', message: `notice: ${event.message}` };
    case 'context':
      return { level: 'debug', message: `context: ${event.used} of ${event.window} tokens` };
    case 'compression':
      return {
        level: 'info',
        message: `compressed the conversation (${event.method}, ${event.reason}): ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.messagesAffected} messages${event.targetMet ? '' : ', still above the target'}`,
      };
    case 'context_window':
      return { level: 'warn', message: `context window ${event.previous} → ${event.window} tokens (${event.source}): ${event.reason}` };
    case 'tools_offered':
      return {
        level: 'debug',
        message: `offered ${event.offered.length} of ${event.total} tools (${event.ranking}): ${event.tokensOffered} of ${event.tokensAll} definition tokens; ${event.offered.join(', ')}`,
      };
    case 'retrieval':
      return {
        level: 'debug',
        message: `retrieved ${event.items.length} chunks (${event.method}, ${event.tokens} prompt tokens)${event.notice ? ` — ${event.notice}` : ''}: ${event.items.map((i) => `${i.file}:${i.startLine}-${i.endLine}`).join(', ')}`,
      };
    case 'error':
      return { level: 'error', message: event.message };
    case 'turn_end':
      return { level: 'info', message: `turn ended: ${event.reason}` };
    case 'text':
    case 'thinking':
      return undefined;
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function preview(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}…`;
}
