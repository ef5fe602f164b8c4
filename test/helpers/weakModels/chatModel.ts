// The chat model for multi-turn tests: every user turn asks what kind of document one note is. A pure
// function of the request: it answers from a read result of that note when one is in the request, and
// otherwise reads the note first. Told to call task_completion after answering, it does, with its answer.
import { noteName } from '../tasks/fileTask';
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { FailureLog, type ModelFn } from './renameTaskModel';
import { baseName, readRequest, type RequestView } from './requestView';

export function chatQuestion(n: number): string {
  return `What kind of document is ${noteName(n)}?`;
}

const QUESTION = /What kind of document is (note-\d\d\.txt)\?/;
const ANSWER = /^(note-\d\d\.txt) is an? (\w+) document\.$/;

export function chatAnswer(note: string, kind: string): string {
  return `${note} is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} document.`;
}

export function chatModel(): ModelFn {
  const log = new FailureLog();
  const fn = (request: ChatBody): ScriptedReply => {
    const view = readRequest(request);
    const offered = new Set(view.tools.map((t) => t.name));
    const asked = latestQuestion(view);
    if (!asked) {
      log.always(`no question in the request (${view.messages.length} messages sent)`);
      return { text: 'What would you like to know?' };
    }
    const answered = view.messages.slice(asked.index + 1).find((m) => m.role === 'assistant' && ANSWER.exec(m.content.trim())?.[1] === asked.note);
    if (answered) {
      // Asked again after answering (a reminder to finish): finish with the same answer.
      if (offered.has('task_completion')) return { toolCalls: [{ name: 'task_completion', arguments: { result: answered.content.trim() } }] };
      return { text: answered.content.trim() };
    }
    const kind = kindRead(view, asked.note);
    if (kind) return { text: chatAnswer(asked.note, kind) };
    if (!offered.has('read_file')) {
      log.always(`${asked.note}: no read_file to look at it with`);
      return { text: `I cannot tell what kind of document ${asked.note} is.` };
    }
    return { toolCalls: [{ name: 'read_file', arguments: { path: asked.note } }] };
  };
  return Object.assign(fn, { failures: log.failures });
}

/** A model that answers every request offering tools with nothing, and answers in text when none are offered. */
export function emptyUntilNoTools(summary = 'I did not change anything.'): (request: ChatBody) => ScriptedReply {
  return (request) => (readRequest(request).tools.length > 0 ? { text: '' } : { text: summary });
}

function latestQuestion(view: RequestView): { index: number; note: string } | undefined {
  for (let i = view.messages.length - 1; i >= 0; i--) {
    const m = view.messages[i]!;
    const q = m.role === 'user' ? QUESTION.exec(m.content) : null;
    if (q) return { index: i, note: q[1]! };
  }
  return undefined;
}

/** The kind stated in a visible read result of `note` (paired with its read call, or by its own header). */
function kindRead(view: RequestView, note: string): string | undefined {
  for (const r of view.results) {
    const fromCall = r.call && /read_(text_)?file$/.test(r.call.name) && baseName(r.call.args.path) === note;
    const fromHeader = r.content.startsWith(`${note} (`) || r.content.startsWith(`${note} lines`);
    if (!fromCall && !fromHeader) continue;
    const kind = /Document kind: (\w+)\./.exec(r.content)?.[1];
    if (kind) return kind;
  }
  return undefined;
}
