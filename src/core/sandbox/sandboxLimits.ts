// Resource limits for each sandboxed command (the runner sets them as rlimits inside the sandbox): how many
// processes and threads, how large a file it may write, and how much memory each process may take. Pure and
// shared by both hosts (CLI flags, editor settings). 0 means no limit.
//
// The defaults let ordinary work run (`npm test`, `go test ./...`, a webpack build) and stop a fork bomb, a runaway
// log and a memory hog before they hurt the machine.

export interface SandboxLimits {
  /** Processes and threads at once inside the sandbox (RLIMIT_NPROC). */
  maxProcesses: number;
  /** Largest file a process may write, in MB (RLIMIT_FSIZE). */
  maxFileSizeMB: number;
  /** Memory each process may allocate, in MB (RLIMIT_DATA: heap and private mappings, not reserved address space). */
  maxMemoryMB: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { maxProcesses: 1024, maxFileSizeMB: 1024, maxMemoryMB: 4096 };

/** How a host names the three values in its messages. */
export interface SandboxLimitNames {
  maxProcesses: string;
  maxFileSizeMB: string;
  maxMemoryMB: string;
  /** A bad value falls back to the default (settings) or is an error (flags). */
  fallsBack: boolean;
}

export const SANDBOX_LIMIT_SETTING_NAMES: SandboxLimitNames = {
  maxProcesses: 'localharness.sandbox.maxProcesses',
  maxFileSizeMB: 'localharness.sandbox.maxFileSizeMB',
  maxMemoryMB: 'localharness.sandbox.maxMemoryMB',
  fallsBack: true,
};

export const SANDBOX_LIMIT_FLAGS: SandboxLimitNames = { maxProcesses: '--max-processes', maxFileSizeMB: '--max-file-size-mb', maxMemoryMB: '--max-memory-mb', fallsBack: false };

/** Below these a shell and a small tool cannot even start: a typo, not a choice. */
const MINIMUM: SandboxLimits = { maxProcesses: 8, maxFileSizeMB: 1, maxMemoryMB: 64 };

export function parseSandboxLimits(raw: Partial<Record<keyof SandboxLimits, unknown>>, problems: string[], names: SandboxLimitNames = SANDBOX_LIMIT_SETTING_NAMES): SandboxLimits {
  const out = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of Object.keys(DEFAULT_SANDBOX_LIMITS) as Array<keyof SandboxLimits>) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const n = typeof value === 'string' ? Number(value) : value;
    if (typeof n === 'number' && Number.isInteger(n) && (n === 0 || (n >= MINIMUM[key] && n <= 2 ** 31))) {
      out[key] = n;
      continue;
    }
    const what = `${names[key]} must be a whole number from ${MINIMUM[key]} (0: no limit), got ${JSON.stringify(value)}`;
    problems.push(names.fallsBack ? `${what}; using ${DEFAULT_SANDBOX_LIMITS[key]}.` : what);
  }
  return out;
}

/** Which limit a command ran into, in words, with the value. */
export function describeLimit(kind: keyof SandboxLimits, limits: SandboxLimits): string {
  if (kind === 'maxProcesses') return `the process limit (${limits.maxProcesses} processes and threads)`;
  if (kind === 'maxFileSizeMB') return `the file size limit (${limits.maxFileSizeMB} MB per file)`;
  return `the memory limit (${limits.maxMemoryMB} MB per process)`;
}
