// Reports what the user is looking at (active file and selection) to the context tracker, debounced.
import * as vscode from 'vscode';
import type { EditorActivity } from '../core/workingContext/tracker';
import { folderPath } from './ports/vsCodeFileSystem';
import { selectionLines } from '../editor/selectionLines';

const DEBOUNCE_MS = 300;

export class EditorActivityWatcher implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = '';

  constructor(private readonly report: (activity: EditorActivity) => void) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === vscode.window.activeTextEditor) this.schedule();
      }),
    );
    this.emit();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.emit();
    }, DEBOUNCE_MS);
  }

  private emit(): void {
    const activity = currentActivity();
    const key = JSON.stringify(activity);
    if (key === this.last) return;
    this.last = key;
    this.report(activity);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

/** Only files inside a workspace folder count; their path is shown relative, as the tools name them. */
function currentActivity(): EditorActivity {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return {};
  const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri);
  if (!folder) return {};
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const rel = relativeTo(folderPath(folder.uri), folderPath(editor.document.uri));
  const activeFile = multiRoot ? `${folder.name}/${rel}` : rel;
  const s = editor.selection;
  const lines = selectionLines({ line: s.start.line, character: s.start.character }, { line: s.end.line, character: s.end.character });
  return lines ? { activeFile, selection: lines } : { activeFile };
}

function relativeTo(root: string, file: string): string {
  const normRoot = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const normFile = file.replace(/\\/g, '/');
  return normFile.startsWith(normRoot + '/') ? normFile.slice(normRoot.length + 1) : normFile;
}
