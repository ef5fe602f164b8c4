// What the tools and the executor see of the command sandbox (commandSandbox.ts implements it). Kept apart so
// tools/tool.ts can name it without importing the approval code the sandbox uses.
import type { FileSystemPort, SandboxPolicy } from '../ports';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';

/** What the user can do about the sandbox, in the host's own words (CLI flags or editor settings). */
export interface SandboxHints {
  /** How to let commands use the network. */
  network: string;
  /** How to run commands without the sandbox. */
  off: string;
  /** How to raise the process, file size and memory limits. */
  limits?: string;
}

/** What a dialog granted for one command, beyond the policy. */
export interface SandboxGrant {
  /** Network for this run ("Allow with network"). */
  network?: boolean;
  /** Sensitive paths a sensitive-write dialog allowed: the protected path holding each stays writable. */
  writable?: readonly string[];
  /** Run once without the sandbox ("Run once without the sandbox"). */
  unconfined?: boolean;
}

export interface CommandSandboxPort {
  readonly hints: SandboxHints;
  /** Commands run in the sandbox. */
  confines(): boolean;
  /** Why a command would run unconfined although the user requires the sandbox; such commands are always asked. */
  unconfinedReason(): string | undefined;
  /** Whether this command may use the network by the user's settings (not counting a dialog's one-time grant). */
  networkFor(command: string): boolean;
  policy(command: string, roots: WorkspaceRoots, fs: FileSystemPort, grant?: SandboxGrant): Promise<SandboxPolicy>;
  /** After the command ran with this policy: the protected files it created that could not be held, now removed. */
  sweep?(policy: SandboxPolicy, fs: FileSystemPort): Promise<string[]>;
}
