// What a tool is: schema, risk, an approval description separate from invocation.
import type { z } from 'zod';
import type { FileSystemPort, ProcessRunner } from '../ports';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';
import type { ContextTracker } from '../workingContext/tracker';
import type { CommandSandboxPort, SandboxGrant } from '../sandbox/types';
import type { ImagePart } from '../images/imagePart';

export type RiskLevel = 'read' | 'write' | 'execute' | 'network';
export const RISK_LEVELS: readonly RiskLevel[] = ['read', 'write', 'execute', 'network'];

export interface ApprovalDescription {
  /** One line: what will happen, e.g. "Run `npm test` in ./". */
  title: string;
  /** Longer detail shown in the dialog: the command line, or the file and a summary of the change. */
  detail: string;
  /** For run_command: the command line, so rules can match prefixes. */
  command?: string;
  /** For file writes: the target and the proposed full content, so the editor can show a diff. */
  fileChange?: { path: string; before: string | undefined; after: string };
  /**
   * Set by the executor when the call writes a file that steers the editor, build, CI, git, the shell or the
   * agent (see core/approval/sensitivePaths). Such calls are asked every time; `reason` says, one line per
   * file, what it controls. `detail` already starts with the warning.
   */
  sensitive?: { paths: string[]; reason: string };
  /**
   * A command that would run without the OS sandbox although the user requires one (none is available), or the
   * offer to run a blocked command again without it. Asked every time, like a sensitive change; `reason` says why.
   */
  unsandboxed?: { reason: string };
  /** A sandboxed command without network: the dialog may offer to allow the network for this one run. */
  networkOffer?: boolean;
}

export interface ToolContext {
  roots: WorkspaceRoots;
  fs: FileSystemPort;
  runner: ProcessRunner;
  tracker: ContextTracker;
  signal: AbortSignal;
  /** Progress for long-running tools (shown in the tool card). */
  onProgress?: (message: string) => void;
  /** The command sandbox (absent: commands run as the runner runs them, unconfined). */
  sandbox?: CommandSandboxPort;
  /** What the approval of this call granted beyond the sandbox policy (network once, a sensitive write…). */
  grant?: SandboxGrant;
  /** The model of this turn sees images (read_file then returns the picture, not a note). */
  vision?: boolean;
}

export interface ToolResult {
  ok: boolean;
  /** What the model reads. On failure: what went wrong and how to fix the call. */
  content: string;
  /** Shown to the user but never sent to the model (transparency notices). */
  display?: string;
  /** The sandbox blocked something (`reason`); the executor may offer to run the call once without it. */
  escalate?: { reason: string };
  /** Images the model sees with the result (read_file of an image, for a model that sees). */
  images?: ImagePart[];
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  readonly risk: RiskLevel;
  /** Ends the turn after it runs (task_completion, ask_question). */
  readonly loopBreaking?: boolean;
  /** JSON Schema to send instead of the one derived from `schema` (MCP tools bring their own). */
  readonly jsonSchema?: Record<string, unknown>;
  describeForApproval(args: z.infer<S>, ctx: ToolContext): Promise<ApprovalDescription> | ApprovalDescription;
  invoke(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

export function ok(content: string, display?: string): ToolResult {
  return display === undefined ? { ok: true, content } : { ok: true, content, display };
}

export function fail(content: string): ToolResult {
  return { ok: false, content };
}

/** Helper that keeps the schema and handler types tied together. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}
