// Approval rules as data: validation, de-duplication, labels, and the per-workspace store.
// Pure (no 'vscode' import): the store takes a Memento-shaped key/value port.
import type { ApprovalRule } from '../../core/approval/gate';
import { RecordStore, type MementoLike } from '../common/recordStore';
import { parseSimpleCommand } from '../../core/shell/simpleCommand';

export const WORKSPACE_RULES_KEY = 'localharness.approval.rules';

export interface ParsedRules {
  rules: ApprovalRule[];
  problems: string[];
}

/** Accepts what settings.json or workspace state hold; keeps the valid rules and says what it dropped. */
export function parseRules(raw: unknown): ParsedRules {
  if (raw === undefined || raw === null) return { rules: [], problems: [] };
  if (!Array.isArray(raw)) return { rules: [], problems: ['expected a list of rules; ignoring the value.'] };
  const rules: ApprovalRule[] = [];
  const problems: string[] = [];
  raw.forEach((item, i) => {
    const why = invalidReason(item);
    if (why) {
      problems.push(`rule ${i + 1} ignored: ${why}`);
      return;
    }
    const r = item as { tool: string; decision: 'allow' | 'deny'; commandPrefix?: string };
    const rule: ApprovalRule = { tool: r.tool.trim(), decision: r.decision };
    const prefix = r.commandPrefix?.trim();
    if (prefix) rule.commandPrefix = prefix;
    rules.push(rule);
  });
  return { rules: dedupeRules(rules), problems };
}

function invalidReason(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'each rule must be an object like {"tool": "run_command", "decision": "allow"}.';
  const r = item as Record<string, unknown>;
  if (typeof r.tool !== 'string' || r.tool.trim() === '') return '"tool" must be a tool name or "*".';
  if (r.decision !== 'allow' && r.decision !== 'deny') return '"decision" must be "allow" or "deny".';
  if (r.commandPrefix !== undefined && typeof r.commandPrefix !== 'string') return '"commandPrefix" must be a string.';
  if (typeof r.commandPrefix === 'string' && r.commandPrefix.trim() === '') return '"commandPrefix" is empty; leave it out to match every command.';
  if (typeof r.commandPrefix === 'string' && r.decision === 'allow') {
    // An allow rule covers one simple command; a prefix that is more would never match anything.
    const parsed = parseSimpleCommand(r.commandPrefix);
    if (!parsed.ok) return `"commandPrefix" must be the start of one plain command (like "npm test"), but ${parsed.reason}.`;
  }
  return undefined;
}

/** Identity of a rule: two rules with the same key behave identically. */
export function ruleKey(rule: ApprovalRule): string {
  const prefix = rule.commandPrefix === undefined ? '' : rule.commandPrefix.trim().replace(/\s+/g, ' ');
  return `${rule.decision}\u0000${rule.tool}\u0000${prefix}`;
}

export function sameRule(a: ApprovalRule, b: ApprovalRule): boolean {
  return ruleKey(a) === ruleKey(b);
}

export function dedupeRules(rules: readonly ApprovalRule[]): ApprovalRule[] {
  const seen = new Set<string>();
  const out: ApprovalRule[] = [];
  for (const rule of rules) {
    const key = ruleKey(rule);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...rule });
  }
  return out;
}

export function withoutRules(rules: readonly ApprovalRule[], remove: readonly ApprovalRule[]): ApprovalRule[] {
  const gone = new Set(remove.map(ruleKey));
  return rules.filter((r) => !gone.has(ruleKey(r)));
}

/** "Allow run_command when the command starts with `npm test`". */
export function describeRule(rule: ApprovalRule): string {
  const verb = rule.decision === 'allow' ? 'Allow' : 'Deny';
  const tool = rule.tool === '*' ? 'every tool' : rule.tool;
  return rule.commandPrefix === undefined ? `${verb} ${tool}` : `${verb} ${tool} when the command starts with \`${rule.commandPrefix}\``;
}

/** The subset of vscode.Memento the store needs. */
export type KeyValueStore = MementoLike;

/** Rules the user created with "Always allow in this workspace" (workspaceState: per workspace, not synced). */
export class WorkspaceRuleStore {
  private readonly records: RecordStore<ApprovalRule>;

  constructor(state: KeyValueStore) {
    this.records = new RecordStore(state, WORKSPACE_RULES_KEY, (r): r is ApprovalRule => invalidReason(r) === undefined, ruleKey);
  }

  list(): ApprovalRule[] {
    // Parsed again: stored rules are trimmed and de-duplicated like those from settings.
    return parseRules(this.records.list()).rules;
  }

  async add(rule: ApprovalRule): Promise<boolean> {
    if (this.records.find(ruleKey(rule))) return false;
    await this.records.put({ ...rule });
    return true;
  }

  async remove(rules: readonly ApprovalRule[]): Promise<number> {
    return (await this.records.remove(rules.map(ruleKey))).length;
  }
}

export type RuleSource = 'workspace' | 'settings';

export interface ListedRule {
  rule: ApprovalRule;
  source: RuleSource;
  label: string;
}

/** Everything the gate will apply, labelled by where it lives (for the manage command). */
export function listRules(workspaceRules: readonly ApprovalRule[], settingsRules: readonly ApprovalRule[]): ListedRule[] {
  return [
    ...workspaceRules.map((rule) => ({ rule, source: 'workspace' as const, label: describeRule(rule) })),
    ...settingsRules.map((rule) => ({ rule, source: 'settings' as const, label: describeRule(rule) })),
  ];
}
