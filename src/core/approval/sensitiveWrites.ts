// Turns a call's write targets into the sensitive-file warning the approval dialog shows.
import type { ApprovalDescription } from '../tools/tool';
import { packageJsonCommandsChanged, type SensitivePaths } from '../workspace/sensitivePaths';
import type { WriteTarget } from './writeTargets';

export interface SensitiveInfo {
  /** The sensitive files the call writes, as shown to the user. */
  paths: string[];
  /** One line per file: what it controls. */
  reason: string;
  /** Every matched target's absolute path: what an approved sandboxed command may write (see grantOf). */
  abs: string[];
}

export function findSensitive(targets: readonly WriteTarget[], matcher: SensitivePaths): SensitiveInfo | undefined {
  const hits: Array<{ display: string; controls: string }> = [];
  const abs: string[] = [];
  for (const t of targets) {
    const match = matcher.match(t.matchPath, t.inWorkspace);
    if (!match) continue;
    // package.json is ordinary unless its command fields change; without the contents (shell, moves) we cannot tell.
    if (match.onlyCommandFields && t.change && !packageJsonCommandsChanged(t.change.before, t.change.after)) continue;
    hits.push({ display: t.display.replace(/\/+$/, ''), controls: match.controls });
    if (t.abs !== undefined) abs.push(t.abs);
  }
  // "cp x .vscode/" yields both ".vscode" and ".vscode/x": show the outer one.
  const shown = hits.filter((h, i) => !hits.some((o, j) => j !== i && o.display !== h.display && h.display.startsWith(o.display + '/')));
  const unique = [...new Map(shown.map((h) => [h.display, h])).values()];
  if (unique.length === 0) return undefined;
  return { paths: unique.map((h) => h.display), reason: unique.map((h) => `${h.display} \u2014 ${h.controls}`).join('\n'), abs };
}

/** The description with the warning first: the dialog and the terminal show it before anything else. */
export function withSensitiveWarning(description: ApprovalDescription, info: SensitiveInfo): ApprovalDescription {
  const warning = `\u26a0 Sensitive: this changes ${info.paths.join(', ')}. It is asked every time; no session or workspace rule covers it.\n${info.reason}`;
  return { ...description, detail: `${warning}\n\n${description.detail}`, sensitive: { paths: info.paths, reason: info.reason } };
}
