// Tracks what the agent and the user touched, so each model call can carry a compact "hot context".

export interface LineRange {
  start: number;
  end: number;
}

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export interface Todo {
  text: string;
  status: TodoStatus;
}

export interface EditorActivity {
  activeFile?: string;
  selection?: LineRange & { text?: string };
}

export interface TrackedFile {
  path: string;
  ranges: LineRange[];
  at: number;
}

export interface TrackerSnapshot {
  filesRead: TrackedFile[];
  filesModified: TrackedFile[];
  todos: Todo[];
  editor: EditorActivity;
}

type Listener = (snapshot: TrackerSnapshot) => void;

export class ContextTracker {
  private readonly read = new Map<string, TrackedFile>();
  private readonly modified = new Map<string, TrackedFile>();
  private todoList: Todo[] = [];
  private editor: EditorActivity = {};
  private readonly listeners = new Set<Listener>();
  private seq = 0;

  fileRead(path: string, range?: LineRange): void {
    this.touch(this.read, path, range);
  }

  fileModified(path: string, range?: LineRange): void {
    this.touch(this.modified, path, range);
  }

  fileMoved(from: string, to: string): void {
    for (const map of [this.read, this.modified]) {
      const entry = map.get(from);
      if (entry) {
        map.delete(from);
        map.set(to, { ...entry, path: to });
      }
    }
    this.touch(this.modified, to);
  }

  setTodos(todos: Todo[]): void {
    this.todoList = todos.map((t) => ({ ...t }));
    this.emit();
  }

  todos(): Todo[] {
    return this.todoList.map((t) => ({ ...t }));
  }

  setEditorActivity(activity: EditorActivity): void {
    this.editor = { ...activity };
    this.emit();
  }

  snapshot(): TrackerSnapshot {
    const byRecency = (a: TrackedFile, b: TrackedFile) => b.at - a.at;
    return {
      filesRead: [...this.read.values()].sort(byRecency).map(copyFile),
      filesModified: [...this.modified.values()].sort(byRecency).map(copyFile),
      todos: this.todos(),
      editor: { ...this.editor },
    };
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private touch(map: Map<string, TrackedFile>, path: string, range?: LineRange): void {
    const entry = map.get(path) ?? { path, ranges: [], at: 0 };
    entry.at = ++this.seq;
    if (range) entry.ranges = mergeRanges([...entry.ranges, range]);
    map.set(path, entry);
    this.emit();
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const snap = this.snapshot();
    for (const l of this.listeners) l(snap);
  }
}

function copyFile(f: TrackedFile): TrackedFile {
  return { path: f.path, ranges: f.ranges.map((r) => ({ ...r })), at: f.at };
}

export function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
