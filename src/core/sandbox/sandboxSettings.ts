// How commands are confined, as the user set it (CLI flags or user settings; a repository never decides).
// Pure and shared by both hosts, so the CLI and the editor read the same values the same way.
import type { SandboxLimits } from './sandboxLimits';

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
  /** Processes, file size and memory per command (sandboxLimits.ts); absent: the defaults. */
  limits?: SandboxLimits;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: 'required', network: false, networkCommands: [], writablePaths: [] };

export interface RawSandboxSettings {
  mode?: unknown;
  network?: unknown;
  networkCommands?: unknown;
  writablePaths?: unknown;
}

/** How a host names the four values in its messages, and whether a bad one falls back (settings) or stops (flags). */
export interface SandboxNames {
  mode: string;
  network: string;
  networkCommands: string;
  writablePaths: string;
  fallsBack: boolean;
}

export const SANDBOX_SETTING_NAMES: SandboxNames = {
  mode: 'localharness.sandbox.mode',
  network: 'localharness.sandbox.network',
  networkCommands: 'localharness.sandbox.networkCommands',
  writablePaths: 'localharness.sandbox.writablePaths',
  fallsBack: true,
};

/**
 * Raw values as a host read them; anything malformed is reported in `problems` (worded with `names`) and replaced
 * by the default. `home` expands a leading "~/" in writablePaths; a path that is still not absolute is left out.
 */
export function parseSandboxSettings(raw: RawSandboxSettings, problems: string[], names: SandboxNames = SANDBOX_SETTING_NAMES, home?: string): SandboxSettings {
  const d = DEFAULT_SANDBOX_SETTINGS;
  const instead = (text: string) => (names.fallsBack ? text : '');
  let mode = d.mode;
  if (SANDBOX_MODES.includes(raw.mode as SandboxMode)) mode = raw.mode as SandboxMode;
  else if (raw.mode !== undefined && raw.mode !== null) problems.push(`${names.mode} must be required, auto or off, got ${JSON.stringify(raw.mode)}${instead(`; using "${d.mode}".`)}`);
  let network = d.network;
  if (typeof raw.network === 'boolean') network = raw.network;
  else if (raw.network !== undefined && raw.network !== null) problems.push(`${names.network} should be true or false${instead('; using false.')}`);
  let networkCommands: string[] = [];
  if (Array.isArray(raw.networkCommands)) {
    const valid = raw.networkCommands.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim().replace(/\s+/g, ' '));
    if (valid.length !== raw.networkCommands.length) problems.push(`${names.networkCommands} needs a command prefix, e.g. "npm install"${instead('; ignored entries that are not one.')}`);
    networkCommands = [...new Set(valid)];
  } else if (raw.networkCommands !== undefined && raw.networkCommands !== null) {
    problems.push(`${names.networkCommands} should be a list of command prefixes such as ["npm install"]; ignored.`);
  }
  const writablePaths: string[] = [];
  if (Array.isArray(raw.writablePaths)) {
    for (const entry of raw.writablePaths) {
      const expanded = typeof entry === 'string' && home !== undefined ? entry.trim().replace(/^~(?=$|[\\/])/, home) : entry;
      if (typeof expanded === 'string' && isAbsolute(expanded)) writablePaths.push(expanded.replace(/[\\/]+$/, '') || '/');
      else if (names.fallsBack) problems.push(`${names.writablePaths}: ignored ${JSON.stringify(entry)} (use an absolute path or ~/…).`);
      else problems.push(`${names.writablePaths} needs a folder, absolute or ~/…, got ${JSON.stringify(entry)}`);
    }
  } else if (raw.writablePaths !== undefined && raw.writablePaths !== null) {
    problems.push(`${names.writablePaths} should be a list of folders such as ["~/.npm"]; ignored.`);
  }
  return { mode, network, networkCommands, writablePaths: [...new Set(writablePaths)] };
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}
