// The status bar item: model and context usage; a click focuses the chat.
import * as vscode from 'vscode';
import { statusText, statusTooltip, type StatusInfo } from '../../editor/status/statusText';

export class HarnessStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private last = '';

  constructor() {
    this.item = vscode.window.createStatusBarItem('localharness.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Local Harness';
    this.item.command = 'localharness.focusChat';
  }

  update(info: StatusInfo): void {
    const text = statusText(info);
    const tooltip = statusTooltip(info);
    const key = `${text}\n${tooltip}`;
    // The store changes on every streamed token; only touch the item when what it shows changes.
    if (key === this.last) return;
    this.last = key;
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = info.unreachable ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
