// The findings in an editor tab (one tab, reused): a page without scripts whose links run a few of our commands.
import * as vscode from 'vscode';
import type { SetupReport } from '../../core/setupCheck/report';
import { createNonce } from '../../editor/chat/nonce';
import { setupReportHtml } from '../../editor/setupCheck/setupReportHtml';

export class SetupReportPanel implements vscode.Disposable {
  static readonly viewType = 'localharness.setupCheck';
  private panel: vscode.WebviewPanel | undefined;

  show(report: SetupReport, sent?: readonly string[]): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(SetupReportPanel.viewType, 'Local Harness: Model Setup', vscode.ViewColumn.Active, {
        enableScripts: false,
        // Only the page's links: check again, pick a model, open the settings.
        enableCommandUris: ['localharness.checkSetup', 'localharness.selectModel', 'localharness.openSettings'],
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Model Setup: ${report.model || report.baseUrl}`;
    this.panel.webview.html = setupReportHtml({ report, nonce: createNonce(), ...(sent && { sent }) });
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
