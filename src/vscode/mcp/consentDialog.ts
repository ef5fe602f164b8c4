// The consent question as a native modal dialog: the exact command line in the detail, Allow or Deny
// (VS Code adds Cancel, which means no).
import * as vscode from 'vscode';
import type { McpServerConfig } from '../../mcp/types';
import { consentDialogText, type ConsentAnswer } from '../../editor/mcp/consent';

export const ALLOW = 'Allow';
export const DENY = 'Deny';

export async function askConsentInModal(server: McpServerConfig, commandLine: string): Promise<ConsentAnswer | undefined> {
  const { message, detail } = consentDialogText(server, commandLine);
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, DENY);
  return answer === ALLOW ? 'allow' : answer === DENY ? 'deny' : undefined;
}
