// Small interfaces through which the core touches the outside world.
// The CLI implements them with node:fs / child_process, the editor with vscode.workspace.

export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  kind: FileKind;
  size: number;
  mtimeMs: number;
}

/** All paths are absolute. Implementations must not follow symlinks in `lstat`. */
export interface FileSystemPort {
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  /** The file's exact bytes on disk (decoding is the caller's business: encodings must survive an edit). */
  readBytes(path: string): Promise<Uint8Array>;
  /** Replace the file's bytes exactly (atomically where the host can). */
  writeBytes(path: string, data: Uint8Array): Promise<void>;
  /** Stat without following a final symlink; undefined when nothing is there. */
  lstat(path: string): Promise<FileStat | undefined>;
  /** Resolve every symlink in the path (the path must exist). */
  realpath(path: string): Promise<string>;
  readDirectory(path: string): Promise<Array<{ name: string; kind: FileKind }>>;
  rename(from: string, to: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  /** Delete a file (used by undo of a file the agent created). */
  remove?(path: string): Promise<void>;
  /**
   * Optional: writeFile (text) or writeBytes (bytes) in two steps, for a caller that must record something durably
   * before the file changes. `ready` starts at once and runs while the new bytes are written and synced beside the
   * file (it may still read the old file); the file is replaced only once both are done. When `ready` rejects, the
   * file is untouched and its error comes back.
   * Resolves to the exact bytes the file now holds (no read-back needed).
   */
  writeAfter?(path: string, content: string | Uint8Array, ready: () => Promise<unknown>): Promise<Uint8Array>;
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Cap on captured output characters; the runner keeps head and tail. */
  maxOutputChars: number;
  /**
   * Run the command in the OS sandbox with this policy. A runner that cannot must refuse (throw), never run
   * the command unconfined: only an absent policy means "no sandbox".
   */
  sandbox?: SandboxPolicy;
}

/** What a sandboxed command may change and reach. Reading stays as the user's. */
export interface SandboxPolicy {
  /** Folders it may write (the workspace folders); the runner adds a private temporary folder of its own. */
  writable: string[];
  /**
   * Paths inside `writable` that stay read-only (sensitive files: .git, .vscode, CI files…). One that does not
   * exist cannot be created either: `kind` says what stands in for it meanwhile.
   */
  readOnly: ProtectedPath[];
  /** Any network (loopback included); false: none at all. */
  network: boolean;
  /** Processes, file size and memory for the command (0: that one unlimited); absent: none (the policy names them). */
  limits?: { maxProcesses: number; maxFileSizeMB: number; maxMemoryMB: number };
}

export interface ProtectedPath {
  path: string;
  exists: boolean;
  /** What it is, or for a missing one what it would be (a folder such as .vscode, or a file such as AGENTS.md). */
  kind: 'file' | 'directory';
}

/** Whether a runner can confine commands, and if not, why (said once to the user). */
export interface SandboxSupport {
  available: boolean;
  /** "bubblewrap", "sandbox-exec", or "none". */
  kind: string;
  /** Why there is no sandbox, and how to get one, when `available` is false. */
  reason?: string;
}

export interface RunResult {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  cancelled: boolean;
}

export interface ProcessRunner {
  run(command: string, options: RunOptions): Promise<RunResult>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
