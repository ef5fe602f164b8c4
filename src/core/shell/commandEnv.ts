// The environment a run_command command sees: an allow-list, never the whole process environment, so the model
// server's key, cloud tokens and whatever else the editor or shell holds stay out of the model's reach. The user
// adds names (a user setting, the CLI's --command-env); Local Harness's own variables never pass.

/** Where to find programs, who and where the user is, how text looks, where temporary files go. */
const BASE_NAMES = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'TMPDIR', 'TZ', 'HOSTNAME',
  'EDITOR', 'VISUAL', 'CI',
  'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME',
  // Toolchain locations (paths, not credentials): tests and builds fail without them.
  'JAVA_HOME', 'GOPATH', 'GOROOT', 'GOMODCACHE', 'GOCACHE', 'CARGO_HOME', 'RUSTUP_HOME', 'PYENV_ROOT', 'VIRTUAL_ENV',
  'CONDA_PREFIX', 'NVM_DIR', 'NVM_BIN', 'VOLTA_HOME', 'PNPM_HOME', 'BUN_INSTALL', 'DENO_DIR',
  // Certificate bundles: paths that let tools with the network trust a company's proxy.
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE',
  // Windows: programs do not start without these.
  'SYSTEMROOT', 'SYSTEMDRIVE', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'USERNAME', 'APPDATA', 'LOCALAPPDATA',
  'TEMP', 'TMP', 'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'COMMONPROGRAMFILES',
  'HOMEDRIVE', 'HOMEPATH', 'OS', 'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE', 'ALLUSERSPROFILE', 'PUBLIC',
];
const BASE_PATTERN = /^LC_[A-Z_]+$/;

/** The product's own variables (the model server's key among them): never handed to a command. */
const NEVER = /^LOCALHARNESS_/i;

export const COMMAND_ENV_BASE: readonly string[] = BASE_NAMES;

/** A name a user may add: a plain variable name that is not one of Local Harness's own. */
export function passthroughProblem(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `"${name}" is not a variable name`;
  if (NEVER.test(name)) return `${name} belongs to Local Harness (the model server's key and settings) and is never passed to commands`;
  return undefined;
}

/**
 * The variables of `source` a command may see: the allow-list, LC_*, and the user's `passthrough` names.
 * Windows compares names without case, as it does itself.
 */
export function commandEnvironment(source: Readonly<Record<string, string | undefined>>, passthrough: readonly string[] = [], windows = false): Record<string, string> {
  const norm = (n: string) => (windows ? n.toUpperCase() : n);
  const allowed = new Set([...BASE_NAMES, ...passthrough].map(norm));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || NEVER.test(name)) continue;
    if (allowed.has(norm(name)) || BASE_PATTERN.test(name)) out[name] = value;
  }
  return out;
}
