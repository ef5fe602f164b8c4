// "Local Harness: Manage Approval Rules": lists workspace and settings rules, and the answers about model servers
// this workspace's settings name, in a QuickPick and revokes the picked ones.
import * as vscode from 'vscode';
import type { ApprovalRule } from '../../core/approval/gate';
import type { Logger } from '../../editor/log/logger';
import { describeServerChoice, type ServerChoice, type ServerChoiceStore } from '../../editor/settings/serverConsent';
import { listRules, parseRules, withoutRules, type ListedRule, type WorkspaceRuleStore } from '../../editor/approval/rules';

type RuleItem = vscode.QuickPickItem & ({ listed: ListedRule; server?: undefined } | { server: ServerChoice; listed?: undefined });

export interface ManageRulesDeps {
  rules: WorkspaceRuleStore;
  servers: ServerChoiceStore;
  log: Logger;
  /** A model-server answer was revoked: the next request asks again. */
  onServersChanged: () => void;
}

export async function manageApprovalRules(deps: ManageRulesDeps): Promise<void> {
  const { rules: store, servers, log } = deps;
  const settingsRules = parseRules(vscode.workspace.getConfiguration('localharness').inspect('approval.rules')?.globalValue).rules;
  const listed = listRules(store.list(), settingsRules);
  const choices = servers.list();
  if (listed.length === 0 && choices.length === 0) {
    const open = 'Open Settings';
    const pick = await vscode.window.showInformationMessage(
      'There are no approval rules yet. Choose "Always allow in this workspace" in an approval dialog, or add rules to the localharness.approval.rules setting.',
      open,
    );
    if (pick === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'localharness.approval');
    return;
  }
  const items: RuleItem[] = [
    ...choices.map((choice) => ({
      label: describeServerChoice(choice),
      description: 'this workspace',
      detail: 'Set in this workspace\'s settings. Revoking it means the next request asks again.',
      server: choice,
    })),
    ...listed.map((l) => ({
      label: l.label,
      description: l.source === 'workspace' ? 'this workspace' : 'settings',
      detail: l.rule.decision === 'deny' ? 'Revoking a deny rule means these calls ask again.' : undefined,
      listed: l,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Local Harness approval rules',
    placeHolder: 'Select the rules to revoke, then press Enter',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return;
  const pickedRules = picked.flatMap((p) => (p.listed ? [p.listed] : []));
  const pickedServers = picked.flatMap((p) => (p.server ? [p.server] : []));
  const fromWorkspace = pickedRules.filter((l) => l.source === 'workspace').map((l) => l.rule);
  const fromSettings = pickedRules.filter((l) => l.source === 'settings').map((l) => l.rule);
  let removed = 0;
  if (fromWorkspace.length) removed += await store.remove(fromWorkspace);
  if (fromSettings.length) removed += await removeFromSettings(fromSettings);
  for (const l of pickedRules) log.info(`approval rule revoked (${l.source}): ${l.label}`);
  if (pickedServers.length) {
    const gone = await servers.revoke(pickedServers);
    removed += gone.length;
    for (const c of gone) log.info(`model server answer revoked: ${describeServerChoice(c)}`);
    deps.onServersChanged();
  }
  void vscode.window.showInformationMessage(`Revoked ${removed} approval rule${removed === 1 ? '' : 's'}.`);
}

/** Removes the rules from the user's settings (the only scope they are read from). */
async function removeFromSettings(rules: readonly ApprovalRule[]): Promise<number> {
  const config = vscode.workspace.getConfiguration('localharness');
  const inspected = config.inspect<unknown>('approval.rules');
  if (!inspected) return 0;
  const scopes: Array<[unknown, vscode.ConfigurationTarget]> = [[inspected.globalValue, vscode.ConfigurationTarget.Global]];
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
