// Turns agent events into CLI output: JSON lines, or readable streaming text.
import type { AgentEvent, RetrievalEvent } from '../core/agent/events';
import { addUsage, EMPTY_TALLY } from '../core/window/promptCacheReport';
import { rereadText } from '../shared/promptCacheText';

export interface Output {
  write(text: string): void;
}

/** `sessionId`: the stored session, named on turn_start and turn_end so a script can continue it with --session. */
export function jsonRenderer(out: Output, sessionId: () => string | undefined = () => undefined): (event: AgentEvent) => void {
  return (event) => {
    const id = event.type === 'turn_start' || event.type === 'turn_end' ? sessionId() : undefined;
    out.write(JSON.stringify(id ? { ...event, sessionId: id } : event) + '\n');
  };
}

const DIM = '\x1b[2m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

export function textRenderer(out: Output, err: Output, color: boolean): (event: AgentEvent) => void {
  const c = (code: string, s: string) => (color ? code + s + RESET : s);
  let midLine = false;
  let inThinking = false;
  // What the server re-read this turn, for the summary line at its end.
  let cache = EMPTY_TALLY;
  const newline = () => {
    if (midLine) out.write('\n');
    midLine = false;
  };
  return (event) => {
    if (event.type !== 'thinking' && inThinking) {
      inThinking = false;
      newline();
    }
    switch (event.type) {
      case 'turn_start':
        cache = EMPTY_TALLY;
        break;
      case 'usage':
        cache = addUsage(cache, event);
        break;
      case 'thinking':
        if (!inThinking) {
          newline();
          out.write(c(DIM, 'thinking: '));
          inThinking = true;
        }
        out.write(c(DIM, event.text));
        midLine = !event.text.endsWith('\n');
        break;
      case 'text':
        out.write(event.text);
        midLine = !event.text.endsWith('\n');
        break;
      case 'status':
        // Reading progress is about the wait, not the answer: it goes where diagnostics go.
        if (event.reading) {
          err.write(c(DIM, `[${event.message}]`) + '\n');
          break;
        }
        newline();
        out.write(c(DIM, `[${event.message}]`) + '\n');
        break;
      case 'notice':
        newline();
        out.write(c(DIM, `[${event.message}]`) + '\n');
        break;
      case 'tool_call':
        newline();
        out.write(c(DIM, `→ ${event.name} ${summarise(event.arguments)}`) + '\n');
        break;
      case 'approval_result':
        if (!event.approved) out.write(c(DIM, `  denied: ${event.reason ?? ''}`) + '\n');
        break;
      case 'tool_result':
        out.write(c(DIM, `  ${event.ok ? '✓' : '✗'} ${firstLine(event.content)}`) + '\n');
        break;
      case 'tool_progress':
        // A long MCP call says how far it got (its timeout restarts with each report).
        newline();
        out.write(c(DIM, `  … ${event.message}`) + '\n');
        break;
      case 'compression':
        newline();
        out.write(
          c(
            DIM,
            `[compressed context (${event.method}): ${event.tokensBefore} → ${event.tokensAfter} tokens of ${event.window}${event.modelCalls ? `, ${event.modelCalls} model calls` : ''}` +
              `${event.indexTokensSaved ? `; index summaries saved ${event.indexTokensSaved}` : ''}]`,
          ) + '\n',
        );
        break;
      case 'retrieval':
        newline();
        if (event.notice) out.write(c(DIM, `[${event.notice}]`) + '\n');
        if (event.items.length) out.write(c(DIM, `[${retrievalLine(event)}]`) + '\n');
        break;
      case 'context_window':
        newline();
        out.write(c(DIM, `[context window ${event.previous} → ${event.window} tokens: ${event.reason}]`) + '\n');
        break;
      case 'plan':
        newline();
        out.write(c(DIM, `[plan: ${event.steps.length} step${event.steps.length === 1 ? '' : 's'}]`) + '\n');
        for (const [i, step] of event.steps.entries()) out.write(c(DIM, `  ${i + 1}. ${step.goal}`) + '\n');
        break;
      case 'step_start':
        newline();
        out.write(c(DIM, `[step ${event.index + 1}/${event.total}: ${event.goal}]`) + '\n');
        break;
      case 'step_end':
        newline();
        if (event.status !== 'ok') out.write(c(DIM, `[step ${event.stepId} ${event.status}${event.summary ? `: ${event.summary}` : ''}]`) + '\n');
        break;
      case 'error':
        newline();
        err.write(c(RED, `error: ${event.message}`) + '\n');
        break;
      case 'turn_end': {
        newline();
        if (event.reason === 'task_completion' || event.reason === 'ask_question') {
          out.write((event.reason === 'ask_question' ? 'Question: ' : 'Done: ') + (event.result ?? '') + '\n');
        }
        const line = rereadText(cache);
        if (line) out.write(c(DIM, `[${cache.requests} model call${cache.requests === 1 ? '' : 's'}: ${line}]`) + '\n');
        break;
      }
      default:
        break;
    }
  };
}

/** "retrieved 3 chunks (vectors, 412 tokens): src/a.ts:10-40, …" — enough to see what the model was shown. */
export function retrievalLine(event: RetrievalEvent): string {
  const n = event.items.length;
  const where = event.items.slice(0, 5).map((i) => `${i.file}:${i.startLine}-${i.endLine}`);
  const more = n > where.length ? `, … ${n - where.length} more` : '';
  const used = event.tokens > 0 ? `, ${event.tokens} tokens` : ', left out of the prompt';
  return `retrieved ${n} chunk${n === 1 ? '' : 's'} (${event.method}${used}): ${where.join(', ')}${more}`;
}

function summarise(args: unknown): string {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 160 ? text.slice(0, 157) + '…' : text;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? line.slice(0, 157) + '…' : line;
}
