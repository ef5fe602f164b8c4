// The sandbox as the tools see it: whether commands are confined, which may use the network, and the policy
// for one command (what it may write, what stays read-only). The runner enforces the policy (node/sandbox).
import type { FileSystemPort, SandboxPolicy, SandboxSupport } from '../ports';
import { commandHasPrefix } from '../commandPrefix';
import { realAncestorJoined } from '../workspace/realLocation';
import { sensitivePathsCache } from '../workspace/sensitivePaths';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';
import { removeCreatedProtected } from './createdProtected';
import { protectedPaths } from './protectedPaths';
import { DEFAULT_SANDBOX_LIMITS } from './sandboxLimits';
import type { SandboxSettings } from './sandboxSettings';
import type { CommandSandboxPort, SandboxGrant, SandboxHints } from './types';

export interface CommandSandboxOptions {
  /** Re-read on every command, so the editor's settings apply at once. */
  settings: () => SandboxSettings;
  /** The runner's answer (it may probe the system the first time). */
  support: () => SandboxSupport;
  /** The user's extra sensitive-path patterns (kept read-only too). */
  extraPatterns?: () => readonly string[];
  /** Files the host protects wherever they are: the MCP configuration it was started with. */
  protectedFiles?: () => readonly string[];
  /** Which limits the runner cannot apply here, and why (told once, with the first command that has limits). */
  limitsMissing?: () => string | undefined;
  hints: SandboxHints;
  /** Told once, the first time it turns out commands will not be confined (see notice()). */
  onNotice?: (message: string) => void;
}

export class CommandSandbox implements CommandSandboxPort {
  private readonly sensitivePaths = sensitivePathsCache();
  private told = false;
  private toldLimits = false;
  /** What sweep() needs of each policy it made. */
  private readonly made = new WeakMap<SandboxPolicy, { folders: string[]; granted: string[]; extra: readonly string[] }>();

  constructor(private readonly options: CommandSandboxOptions) {}

  get hints(): SandboxHints {
    return this.options.hints;
  }

  settings(): SandboxSettings {
    return this.options.settings();
  }

  confines(): boolean {
    return this.settings().mode !== 'off' && this.support().available;
  }

  unconfinedReason(): string | undefined {
    if (this.settings().mode !== 'required') return undefined;
    const support = this.support();
    return support.available ? undefined : this.why(support);
  }

  /**
   * Finds out now whether commands will be confined (the runner may probe the system), so the notice comes at the
   * start of a session rather than with the first command.
   */
  announce(): void {
    if (this.settings().mode !== 'off') this.support();
  }

  /** The notice for when commands will not be confined; undefined when they will. */
  notice(): string | undefined {
    const mode = this.settings().mode;
    if (mode === 'off') return undefined;
    const support = this.options.support();
    if (support.available) return undefined;
    const hint = this.options.hints;
    return mode === 'required'
      ? `No sandbox for commands: ${this.why(support)}. Every command will be asked before it runs (no rule or auto-approval covers it). To run them without a sandbox under your usual approval rules: ${hint.off}.`
      : `No sandbox for commands: ${this.why(support)}. Commands run without one, under your usual approval rules.`;
  }

  networkFor(command: string): boolean {
    const s = this.settings();
    return s.network || s.networkCommands.some((prefix) => commandHasPrefix(command, prefix));
  }

  async policy(command: string, roots: WorkspaceRoots, fs: FileSystemPort, grant: SandboxGrant = {}): Promise<SandboxPolicy> {
    // Binds go by the real location: a workspace reached through a link is written where it really is.
    const folders = await Promise.all(roots.folders.map((f) => fs.realpath(f.path).catch(() => f.path)));
    // The user's extra writable folders that exist (a missing one cannot be bound).
    const others = (await Promise.all(this.settings().writablePaths.map((p) => fs.realpath(p).catch(() => undefined)))).filter(
      (p): p is string => p !== undefined && !folders.includes(p),
    );
    const extra = this.options.extraPatterns?.() ?? [];
    const files = await Promise.all((this.options.protectedFiles?.() ?? []).map(async (p) => (await realAncestorJoined(p, fs)) ?? p));
    const granted = await Promise.all((grant.writable ?? []).map(async (p) => (await realAncestorJoined(p, fs)) ?? p));
    const readOnly = await protectedPaths({
      folders,
      otherFolders: others,
      fs,
      sensitive: this.sensitivePaths(extra),
      extraPatterns: extra,
      // A granted path as it is on disk, so it matches the read-only list built from real paths.
      granted,
      files,
    });
    const limits = this.settings().limits ?? DEFAULT_SANDBOX_LIMITS;
    if (!this.toldLimits && Object.values(limits).some((v) => v > 0)) {
      this.toldLimits = true;
      const missing = this.options.limitsMissing?.();
      if (missing) this.options.onNotice?.(`Sandbox limits: ${missing}.`);
    }
    const policy: SandboxPolicy = { writable: [...folders, ...others], readOnly, network: !!grant.network || this.networkFor(command), limits };
    this.made.set(policy, { folders, granted, extra });
    return policy;
  }

  /** After the command: protected files it created under names that could not be held, removed (createdProtected.ts). */
  async sweep(policy: SandboxPolicy, fs: FileSystemPort): Promise<string[]> {
    const made = this.made.get(policy);
    if (!made) return [];
    return removeCreatedProtected({ policy, folders: made.folders, granted: made.granted, sensitive: this.sensitivePaths(made.extra), extraPatterns: made.extra, fs });
  }

  /** The runner's answer; the first "unavailable" while the sandbox is wanted is told once. */
  private support(): SandboxSupport {
    const support = this.options.support();
    if (!support.available && !this.told && this.settings().mode !== 'off') {
      this.told = true;
      const notice = this.notice();
      if (notice) this.options.onNotice?.(notice);
    }
    return support;
  }

  private why(support: SandboxSupport): string {
    return (support.reason ?? 'this system has none').replace(/[.\s]+$/, '');
  }
}
