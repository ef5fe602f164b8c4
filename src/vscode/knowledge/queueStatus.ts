// The status bar item for the indexing queue ("$(database) 2 to index"), shown while files wait for an answer;
// clicking it asks again. Also the `localharness.indexQueueLength` context key (the palette's command).
import * as vscode from 'vscode';
import { queueStatusText } from '../../editor/knowledge/queueQuestion';

export class QueueStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('localharness.indexQueue', vscode.StatusBarAlignment.Right, 99);

  constructor() {
    this.item.name = 'Local Harness Indexing Queue';
    this.item.command = 'localharness.resumeIndexQueue';
  }

  update(length: number): void {
    void vscode.commands.executeCommand('setContext', 'localharness.indexQueueLength', length);
    if (length <= 0) {
      this.item.hide();
      return;
    }
    this.item.text = queueStatusText(length);
    this.item.tooltip = `${length} file${length === 1 ? '' : 's'} the agent read ${length === 1 ? 'waits' : 'wait'} for your answer: index, index some lines, metadata only or skip. Click to answer.`;
    this.item.accessibilityInformation = { label: `${length} file${length === 1 ? '' : 's'} to index. Click to answer.` };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
