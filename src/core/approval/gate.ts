// The approval gate: policy first, then the injected asker. Anything but an explicit yes is a no.
// A call that writes a sensitive file (description.sensitive), or a command that would run without the sandbox the
// user requires (description.unsandboxed), is asked every time: only a deny rule decides it without asking, and an
// answer "for this session" / "always" is taken as "once".
import type { ApprovalDescription, RiskLevel } from '../tools/tool';
import { sensitivePathsCache, type SensitivePaths } from '../workspace/sensitivePaths';
import { commandHasPrefix, coverable } from '../commandPrefix';
import { mentionsCommand } from './commandSegments';

export type ApprovalScope = 'once' | 'session' | 'workspace';

export interface ApprovalRequest {
  toolName: string;
  risk: RiskLevel;
  args: unknown;
  description: ApprovalDescription;
}

export type ApprovalDecision =
  | { approved: true; scope: ApprovalScope; /** "Allow with network": this run of a sandboxed command may use it. */ network?: boolean }
  | { approved: false; reason: string };

/** Injected by the host (CLI prompt, VS Code modal). May throw or never answer; the gate handles both. */
export type ApprovalAsker = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

export interface ApprovalRule {
  /** Tool name, or "*" for any tool. */
  tool: string;
  /** For run_command: the command must start with this prefix (word-boundary aware). */
  commandPrefix?: string;
  decision: 'allow' | 'deny';
}

export interface ApprovalPolicy {
  /** Risk levels that run without asking. */
  autoApprove: readonly RiskLevel[];
  rules: readonly ApprovalRule[];
}

export interface GateOptions {
  policy: ApprovalPolicy;
  ask?: ApprovalAsker;
  /** How long to wait for an answer before denying. */
  timeoutMs?: number;
  /** Called when the user chose "for this session" or "always in this workspace". */
  onRemember?: (rule: ApprovalRule, scope: Exclude<ApprovalScope, 'once'>) => void;
  /**
   * Extra sensitive-path globs (a user-scope setting), on top of the defaults, which cannot be removed.
   * Re-read on every call, so the host may change the array in place.
   */
  sensitivePatterns?: readonly string[];
  /** CLI `--approve all --allow-sensitive`: sensitive calls follow the ordinary policy (still marked). */
  allowSensitive?: boolean;
  /** A sensitive call was denied because no one can be asked (the CLI explains on stderr). */
  onSensitiveDenied?: (request: ApprovalRequest, reason: string) => void;
}

export class ApprovalGate {
  private readonly sessionRules: ApprovalRule[] = [];
  private readonly sensitive = sensitivePathsCache();

  constructor(private readonly options: GateOptions) {}

  /** The sensitive-path matcher: the defaults plus the host's extra patterns as they are now. */
  sensitivePaths(): SensitivePaths {
    return this.sensitive(this.options.sensitivePatterns ?? []);
  }

  /** Decide without asking: allow, deny, or undefined when the user must be asked. */
  decideByPolicy(request: ApprovalRequest): 'allow' | 'deny' | undefined {
    const rules = [...this.sessionRules, ...this.options.policy.rules];
    // Deny rules win over allow rules so a broad allow can't override a specific deny.
    const matching = rules.filter((r) => ruleMatches(r, request));
    if (matching.some((r) => r.decision === 'deny')) return 'deny';
    if (this.alwaysAsks(request)) return undefined;
    if (matching.some((r) => r.decision === 'allow')) return 'allow';
    if (this.options.policy.autoApprove.includes(request.risk)) return 'allow';
    return undefined;
  }

  needsAsking(request: ApprovalRequest): boolean {
    return this.decideByPolicy(request) === undefined;
  }

  async check(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const byPolicy = this.decideByPolicy(request);
    if (byPolicy === 'allow') return { approved: true, scope: 'once' };
    if (byPolicy === 'deny') return { approved: false, reason: 'a rule denies this tool call' };
    const ask = this.options.ask;
    const sensitive = this.alwaysAsks(request);
    if (!ask) {
      const unsandboxed = request.description.unsandboxed;
      if (unsandboxed) return { approved: false, reason: `it would run without the sandbox (${unsandboxed.reason}), which is always asked, and no one is available to approve it (non-interactive run)` };
      if (!sensitive) return { approved: false, reason: `${this.nearMiss(request) ?? ''}no one is available to approve it (non-interactive run)` };
      const reason = `it changes ${request.description.sensitive!.paths.join(', ')}, a sensitive file that always needs the user's approval, and no one is available to approve it (non-interactive run)`;
      this.options.onSensitiveDenied?.(request, reason);
      return { approved: false, reason };
    }
    const decision = await askWithTimeout(ask, request, signal, this.options.timeoutMs ?? 10 * 60_000);
    // Nothing is remembered for a sensitive file: the next write to it is asked again.
    if (decision.approved && sensitive) return { approved: true, scope: 'once', ...(decision.network && { network: true }) };
    // A chained command cannot become a rule: a rule covers one simple command, so this one would never match.
    if (decision.approved && decision.scope !== 'once' && rememberable(request) !== true) return { approved: true, scope: 'once' };
    if (decision.approved && decision.scope !== 'once') {
      const rule = ruleFor(request);
      if (decision.scope === 'session') this.sessionRules.push(rule);
      this.options.onRemember?.(rule, decision.scope);
    }
    return decision;
  }

  /** Someone can be asked (a terminal, the editor's dialogs). */
  get canAsk(): boolean {
    return this.options.ask !== undefined;
  }

  /** "the rule for `npm test` covers one plain command, and this one spans more than one line; " — or undefined. */
  private nearMiss(request: ApprovalRequest): string | undefined {
    const command = request.description.command;
    const c = command === undefined ? undefined : coverable(command);
    if (!c || c.ok) return undefined;
    const head = command!.split(/[\n\r;&|`<>()]|\$\(/)[0]!;
    const rule = [...this.sessionRules, ...this.options.policy.rules].find(
      (r) => r.decision === 'allow' && r.commandPrefix !== undefined && (r.tool === '*' || r.tool === request.toolName) && commandHasPrefix(head, r.commandPrefix),
    );
    return rule ? `the rule for \`${rule.commandPrefix}\` covers one plain command only, and ${c.reason}; ` : undefined;
  }

  private alwaysAsks(request: ApprovalRequest): boolean {
    // --allow-sensitive covers sensitive files, never a command without the sandbox.
    return !!request.description.unsandboxed || (!!request.description.sensitive && !this.options.allowSensitive);
  }
}

async function askWithTimeout(
  ask: ApprovalAsker,
  request: ApprovalRequest,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ApprovalDecision> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<ApprovalDecision>((resolve) => {
      timer = setTimeout(() => resolve({ approved: false, reason: 'no answer in time' }), timeoutMs);
    });
    const aborted = new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) resolve({ approved: false, reason: 'the turn was cancelled' });
      controller.signal.addEventListener('abort', () => resolve({ approved: false, reason: 'the turn was cancelled' }), { once: true });
    });
    const answer = Promise.resolve()
      .then(() => ask(request, controller.signal))
      .then(normalize, (err: unknown) => ({ approved: false as const, reason: `approval failed: ${(err as Error)?.message ?? String(err)}` }));
    return await Promise.race([answer, timeout, aborted]);
  } finally {
    if (timer) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/** Only a well-formed yes counts. */
function normalize(decision: unknown): ApprovalDecision {
  const d = decision as ApprovalDecision | undefined;
  if (d && d.approved === true && (d.scope === 'once' || d.scope === 'session' || d.scope === 'workspace')) {
    // The network is granted for one run only, never remembered with a rule.
    return d.network === true ? { approved: true, scope: 'once', network: true } : { approved: true, scope: d.scope };
  }
  if (d && d.approved === false) return { approved: false, reason: d.reason || 'denied by the user' };
  return { approved: false, reason: 'no valid answer' };
}

export function ruleMatches(rule: ApprovalRule, request: ApprovalRequest): boolean {
  if (rule.tool !== '*' && rule.tool !== request.toolName) return false;
  if (rule.commandPrefix === undefined) return true;
  const command = request.description.command;
  if (command === undefined) return false;
  // Allow: exactly one simple command starting with the prefix. Deny: any command the line starts.
  return rule.decision === 'allow' ? commandHasPrefix(command, rule.commandPrefix) : mentionsCommand(command, rule.commandPrefix);
}

/**
 * Whether "for this session" / "always" can be offered for this call: true, or why not (a command that is not one
 * simple command: chained, substituted, several lines…; such a rule would cover nothing, or too much).
 */
export function rememberable(request: Pick<ApprovalRequest, 'description'>): true | string {
  const command = request.description.command;
  if (command === undefined) return true;
  const c = coverable(command);
  return c.ok ? true : `no rule can cover this command: ${c.reason}`;
}

/** "npm test" matches "npm test" and "npm test -- -x" but not "npm testing" or "npm test && rm -rf /". */
function ruleFor(request: ApprovalRequest): ApprovalRule {
  const command = request.description.command;
  return command !== undefined
    ? { tool: request.toolName, commandPrefix: command, decision: 'allow' }
    : { tool: request.toolName, decision: 'allow' };
}
