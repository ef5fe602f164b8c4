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
  /** Stat without following a final symlink; undefined when nothing is there. */
  lstat(path: string): Promise<FileStat | undefined>;
  /** Resolve every symlink in the path (the path must exist). */
  realpath(path: string): Promise<string>;
  readDirectory(path: string): Promise<Array<{ name: string; kind: FileKind }>>;
  rename(from: string, to: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  /** Delete a file (used by undo of a file the agent created). */
  remove?(path: string): Promise<void>;
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Cap on captured output characters; the runner keeps head and tail. */
  maxOutputChars: number;
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
