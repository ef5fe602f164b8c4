// The sampling approval as a native modal warning: Allow, Allow for This Server (this window) or Deny; VS Code
// adds Cancel, which refuses.
import * as vscode from 'vscode';
import type { SamplingAnswer, SamplingDialogText } from '../../editor/mcp/samplingApproval';

export const ALLOW_ONCE = 'Allow';
export const ALLOW_SERVER = 'Allow for This Server';
export const DENY_SAMPLING = 'Deny';

export async function askSamplingInModal({ message, detail }: SamplingDialogText): Promise<SamplingAnswer | undefined> {
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW_ONCE, ALLOW_SERVER, DENY_SAMPLING);
  return answer === ALLOW_ONCE ? 'allow' : answer === ALLOW_SERVER ? 'allowServer' : answer === DENY_SAMPLING ? 'deny' : undefined;
}
