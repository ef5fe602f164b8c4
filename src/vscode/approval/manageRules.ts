// "Local Harness: Manage Approval Rules": lists workspace and settings rules in a QuickPick and revokes the picked ones.
import * as vscode from 'vscode';
import type { ApprovalRule } from '../../core/approval/gate';
import type { Logger } from '../log/logger';
import { listRules, parseRules, withoutRules, type ListedRule, type WorkspaceRuleStore } from './rules';

interface RuleItem extends vscode.QuickPickItem {
  listed: ListedRule;
}

export async function manageApprovalRules(store: WorkspaceRuleStore, log: Logger, onChanged: () => void): Promise<void> {
  const settingsRules = parseRules(vscode.workspace.getConfiguration('localharness').get('approval.rules')).rules;
  const listed = listRules(store.list(), settingsRules);
  if (listed.length === 0) {
    const open = 'Open Settings';
    const pick = await vscode.window.showInformationMessage(
      'There are no approval rules yet. Choose "Always allow in this workspace" in an approval dialog, or add rules to the localharness.approval.rules setting.',
      open,
    );
    if (pick === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'localharness.approval');
    return;
  }
  const items: RuleItem[] = listed.map((l) => ({
    label: l.label,
    description: l.source === 'workspace' ? 'this workspace' : 'settings',
    detail: l.rule.decision === 'deny' ? 'Revoking a deny rule means these calls ask again.' : undefined,
    listed: l,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Local Harness approval rules',
    placeHolder: 'Select the rules to revoke, then press Enter',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return;
  const fromWorkspace = picked.filter((p) => p.listed.source === 'workspace').map((p) => p.listed.rule);
  const fromSettings = picked.filter((p) => p.listed.source === 'settings').map((p) => p.listed.rule);
  let removed = 0;
  if (fromWorkspace.length) removed += await store.remove(fromWorkspace);
  if (fromSettings.length) removed += await removeFromSettings(fromSettings);
  for (const p of picked) log.info(`approval rule revoked (${p.listed.source}): ${p.listed.label}`);
  onChanged();
  void vscode.window.showInformationMessage(`Revoked ${removed} approval rule${removed === 1 ? '' : 's'}.`);
}

/** Removes the rules from every settings scope that defines them (user, workspace, folder). */
async function removeFromSettings(rules: readonly ApprovalRule[]): Promise<number> {
  const config = vscode.workspace.getConfiguration('localharness');
  const inspected = config.inspect<unknown>('approval.rules');
  if (!inspected) return 0;
  const scopes: Array<[unknown, vscode.ConfigurationTarget]> = [
    [inspected.globalValue, vscode.ConfigurationTarget.Global],
    [inspected.workspaceValue, vscode.ConfigurationTarget.Workspace],
    [inspected.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder],
  ];
  let removed = 0;
  for (const [value, target] of scopes) {
    if (!Array.isArray(value)) continue;
    // Filter the raw entries so anything we don't understand stays exactly as the user wrote it.
    const kept = value.filter((item: unknown) => {
      const parsed = parseRules([item]).rules[0];
      return !parsed || withoutRules([parsed], rules).length === 1;
    });
    if (kept.length === value.length) continue;
    removed += value.length - kept.length;
    await config.update('approval.rules', kept, target);
  }
  return removed;
}
