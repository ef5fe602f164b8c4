// Asks about one queued file with a native QuickPick ("Index src/a.ts? (1 of 2)"); "Index lines…" follows up
// with an InputBox for the range. Escape (or the queue being stopped) answers undefined: the file stays queued.
import * as vscode from 'vscode';
import type { FileSystemPort } from '../../core/ports';
import type { QueueChoice, QueueEntry } from '../../indexing/indexQueue';
import { parseLineRange } from '../../editor/knowledge/lineRange';
import { QUEUE_PLACEHOLDER, queueChoices, queueTitle, type QueueAnswer } from '../../editor/knowledge/queueQuestion';

type ChoiceItem = vscode.QuickPickItem & { answer: QueueAnswer };

export function createQueueAsker(fs: Pick<FileSystemPort, 'readFile'>) {
  return async (entry: QueueEntry, position: { index: number; total: number }, signal: AbortSignal): Promise<QueueChoice | undefined> => {
    const title = queueTitle(entry.path, position.index, position.total);
    const items: ChoiceItem[] = queueChoices(entry.type).map((c) => ({ label: c.label, detail: c.detail, answer: c.answer }));
    const answer = await pick(title, items, signal);
    switch (answer) {
      case undefined:
        return undefined;
      case 'lines': {
        const range = await askRange(entry, title, fs, signal);
        return range ? { kind: 'lines', range } : undefined;
      }
      default:
        return { kind: answer };
    }
  };
}

function pick(title: string, items: ChoiceItem[], signal: AbortSignal): Promise<QueueAnswer | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<ChoiceItem>();
    qp.title = title;
    qp.placeholder = QUEUE_PLACEHOLDER;
    qp.items = items;
    qp.matchOnDetail = true;
    // The question waits for the user: clicking into the chat or an editor must not count as "later".
    qp.ignoreFocusOut = true;
    let answer: QueueAnswer | undefined;
    const onAbort = () => qp.hide();
    signal.addEventListener('abort', onAbort, { once: true });
    qp.onDidAccept(() => {
      answer = qp.selectedItems[0]?.answer;
      qp.hide();
    });
    qp.onDidHide(() => {
      signal.removeEventListener('abort', onAbort);
      qp.dispose();
      resolve(answer);
    });
    qp.show();
  });
}

async function askRange(entry: QueueEntry, title: string, fs: Pick<FileSystemPort, 'readFile'>, signal: AbortSignal) {
  let lineCount: number;
  try {
    lineCount = countLines(await fs.readFile(entry.abs));
  } catch (err) {
    void vscode.window.showWarningMessage(`Local Harness: ${entry.path} could not be read: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
  const tokenSource = new vscode.CancellationTokenSource();
  const onAbort = () => tokenSource.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const text = await vscode.window.showInputBox(
      {
        title,
        prompt: `Lines of ${entry.path} to index (1-${lineCount}), as start-end`,
        value: `1-${lineCount}`,
        ignoreFocusOut: true,
        validateInput: (value) => {
          const parsed = parseLineRange(value, lineCount);
          return parsed.ok ? undefined : parsed.error;
        },
      },
      tokenSource.token,
    );
    if (text === undefined) return undefined;
    const parsed = parseLineRange(text, lineCount);
    return parsed.ok ? parsed.range : undefined;
  } finally {
    signal.removeEventListener('abort', onAbort);
    tokenSource.dispose();
  }
}

function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
