// How commands are confined, as the user set it (CLI flags or user settings; a repository never decides).
// Pure and shared by both hosts, so the CLI and the editor read the same values the same way.

/**
 * required: commands run in the OS sandbox; without one, every command is asked (no rule or auto-approval runs it).
 * auto: the sandbox when there is one; without one, commands follow the ordinary approval rules.
 * off: no sandbox; ordinary approval rules.
 */
export type SandboxMode = 'required' | 'auto' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['required', 'auto', 'off'];

export interface SandboxSettings {
  mode: SandboxMode;
  /** Every sandboxed command may use the network. */
  network: boolean;
  /** Commands starting with one of these (word-aware, never a chained command) may use the network. */
  networkCommands: string[];
  /** More folders commands may write (absolute; a package cache such as ~/.npm or ~/.cargo). */
  writablePaths: string[];
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: 'required', network: false, networkCommands: [], writablePaths: [] };

export interface RawSandboxSettings {
  mode?: unknown;
  network?: unknown;
  networkCommands?: unknown;
  writablePaths?: unknown;
}

/**
 * Raw values as a host read them; anything malformed is reported in `problems` and replaced by the default.
 * `home` expands a leading "~/" in writablePaths; a path that is still not absolute is left out.
 */
export function parseSandboxSettings(raw: RawSandboxSettings, problems: string[], prefix = 'localharness.sandbox.', home?: string): SandboxSettings {
  const d = DEFAULT_SANDBOX_SETTINGS;
  let mode = d.mode;
  if (SANDBOX_MODES.includes(raw.mode as SandboxMode)) mode = raw.mode as SandboxMode;
  else if (raw.mode !== undefined && raw.mode !== null) problems.push(`${prefix}mode must be "required", "auto" or "off"; using "${d.mode}".`);
  let network = d.network;
  if (typeof raw.network === 'boolean') network = raw.network;
  else if (raw.network !== undefined && raw.network !== null) problems.push(`${prefix}network should be true or false; using false.`);
  let networkCommands: string[] = [];
  if (Array.isArray(raw.networkCommands)) {
    const valid = raw.networkCommands.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim().replace(/\s+/g, ' '));
    if (valid.length !== raw.networkCommands.length) problems.push(`${prefix}networkCommands: ignored entries that are not command prefixes (non-empty strings).`);
    networkCommands = [...new Set(valid)];
  } else if (raw.networkCommands !== undefined && raw.networkCommands !== null) {
    problems.push(`${prefix}networkCommands should be a list of command prefixes such as ["npm install"]; ignored.`);
  }
  const writablePaths: string[] = [];
  if (Array.isArray(raw.writablePaths)) {
    for (const entry of raw.writablePaths) {
      const expanded = typeof entry === 'string' && home !== undefined ? entry.trim().replace(/^~(?=$|[\\/])/, home) : entry;
      if (typeof expanded === 'string' && isAbsolute(expanded)) writablePaths.push(expanded.replace(/[\\/]+$/, '') || '/');
      else problems.push(`${prefix}writablePaths: ignored ${JSON.stringify(entry)} (use an absolute path or ~/…).`);
    }
  } else if (raw.writablePaths !== undefined && raw.writablePaths !== null) {
    problems.push(`${prefix}writablePaths should be a list of folders such as ["~/.npm"]; ignored.`);
  }
  return { mode, network, networkCommands, writablePaths: [...new Set(writablePaths)] };
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}
