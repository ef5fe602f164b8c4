// What the working context at the tail of the conversation says. Where it goes is the request layout's rule
// (src/core/prompt/requestLayout.ts): never into the system prompt, never rewritten where it was sent; it travels
// with the newest message, as that message's `context`, and stays there byte for byte. This decides what it says:
// - At the start of a turn: the whole block (what earlier turns touched, the todos, the user's editor, the code
//   retrieved for this request), with the user's message.
// - Before each later request of the turn: only what changed since the model last heard — a file read or changed
//   (with its line ranges), the todo list, the file the user is looking at. A short line, not the block again:
//   every request would otherwise carry the whole list once more.
import { renderEditorLine, renderHotContext, renderTodos, ranges } from './hotContext';
import type { TrackedFile, TrackerSnapshot } from './tracker';

const UPDATE_HEAD = '# Working context (update)';

interface Sent {
  read: Map<string, string>;
  modified: Map<string, string>;
  todos: string;
  editor: string;
}

export class WorkingContextTail {
  private sent: Sent = { read: new Map(), modified: new Map(), todos: '', editor: '' };

  /** The block for the first request of a turn; undefined when there is nothing to say. */
  turnStart(snapshot: TrackerSnapshot, retrieved?: string): string | undefined {
    this.sent = seen(snapshot);
    // The retrieved code carries its own heading (renderRetrievedContext).
    const parts = [renderHotContext(snapshot), retrieved?.trim() ?? ''].filter((p) => p !== '');
    return parts.length ? parts.join('\n\n') : undefined;
  }

  /** A later request of the turn: what changed since the model last heard, or undefined when nothing did. */
  update(snapshot: TrackerSnapshot): string | undefined {
    const now = seen(snapshot);
    const lines: string[] = [];
    const modified = changed(now.modified, this.sent.modified);
    if (modified.length) lines.push(`Modified: ${modified.map(([path, at]) => path + at).join(', ')}`);
    const read = changed(now.read, this.sent.read).filter(([path]) => !now.modified.has(path));
    if (read.length) lines.push(`Read: ${read.map(([path, at]) => path + at).join(', ')}`);
    if (now.todos !== this.sent.todos) lines.push(now.todos || 'The todo list is now empty.');
    if (now.editor !== this.sent.editor && now.editor) lines.push(now.editor);
    this.sent = now;
    return lines.length ? `${UPDATE_HEAD}\n${lines.join('\n')}` : undefined;
  }
}

function seen(snapshot: TrackerSnapshot): Sent {
  const byPath = (files: readonly TrackedFile[]) => new Map(files.map((f) => [f.path, ranges(f.ranges)]));
  return { read: byPath(snapshot.filesRead), modified: byPath(snapshot.filesModified), todos: renderTodos(snapshot.todos), editor: renderEditorLine(snapshot.editor) };
}

/** Files new since `before`, or with other line ranges, as [path, " (lines …)"]. */
function changed(now: ReadonlyMap<string, string>, before: ReadonlyMap<string, string>): Array<[string, string]> {
  return [...now].filter(([path, lines]) => before.get(path) !== lines);
}
