// Files that steer what the editor, the build, CI, git, the shell or the agent itself will do next. A write to
// one is always asked about, with a line saying what the file controls (issue: a repository must not steer
// the agent). The defaults always apply; the host may add patterns but cannot remove any.
import picomatch from 'picomatch';

export interface SensitivePattern {
  /** A glob, matched case-insensitively at any depth ("AGENTS.md" also hits "pkg/AGENTS.md"). */
  pattern: string;
  /** For the dialog: what a change to the file can do. */
  controls: string;
  /** Only sensitive when the change touches the fields that run commands (package.json). */
  onlyCommandFields?: boolean;
}

const CI = 'CI pipeline: commands CI runs, often with the repository\u2019s secrets';
const SHELL = 'shell start-up file: commands every new shell runs';
const OTHER_AGENT = 'instructions other coding agents follow';

/** Most specific first: the first pattern that matches names what the file controls. */
export const DEFAULT_SENSITIVE_PATTERNS: readonly SensitivePattern[] = [
  { pattern: '.vscode/settings.json', controls: 'editor and extension settings for this workspace, including which model server Local Harness uses' },
  { pattern: '.vscode/tasks.json', controls: 'VS Code tasks: commands the editor runs, some as soon as the folder opens' },
  { pattern: '.vscode/launch.json', controls: 'debug configurations: programs the editor starts' },
  { pattern: '.vscode/mcp.json', controls: 'MCP servers: commands the editor starts' },
  { pattern: '.vscode/**', controls: 'editor configuration for this workspace (settings, tasks, launch configurations, extensions)' },
  { pattern: '*.code-workspace', controls: 'a VS Code workspace file: its folders and settings, including which model server Local Harness uses' },
  { pattern: '.git/hooks/**', controls: 'git hooks: scripts git runs on commit, checkout, merge and push' },
  { pattern: '.git/config', controls: 'git configuration: hooks path, aliases, filters and remotes, which can make git run commands' },
  { pattern: '.git/**', controls: 'the git repository itself (history, refs, configuration, hooks)' },
  { pattern: '.gitconfig', controls: 'git configuration: hooks path, aliases, filters and credential helpers, which can make git run commands' },
  { pattern: '.husky/**', controls: 'git hooks managed by husky: scripts git runs on commit and push' },
  { pattern: '.pre-commit-config.yaml', controls: 'pre-commit hooks: commands git runs on every commit' },
  { pattern: '.github/workflows/**', controls: 'GitHub Actions workflows: commands CI runs, often with the repository\u2019s secrets' },
  { pattern: '.github/actions/**', controls: 'GitHub Actions used by the workflows: commands CI runs' },
  { pattern: '.gitlab-ci.yml', controls: CI },
  { pattern: '.circleci/**', controls: CI },
  { pattern: 'azure-pipelines.yml', controls: CI },
  { pattern: '.travis.yml', controls: CI },
  { pattern: 'Jenkinsfile', controls: CI },
  { pattern: 'bitbucket-pipelines.yml', controls: CI },
  { pattern: '.buildkite/**', controls: CI },
  { pattern: '.drone.yml', controls: CI },
  { pattern: '.devcontainer/**', controls: 'dev container definition: the image, commands and mounts used when the folder is reopened in a container' },
  { pattern: '.devcontainer.json', controls: 'dev container definition: the image, commands and mounts used when the folder is reopened in a container' },
  { pattern: 'AGENTS.md', controls: 'the agent\u2019s own rules: instructions Local Harness follows in every turn' },
  { pattern: '.localharness/**', controls: 'Local Harness project rules: instructions it follows in every turn' },
  { pattern: '.mcp.json', controls: 'MCP servers: commands Local Harness and other agents start' },
  { pattern: 'CLAUDE.md', controls: OTHER_AGENT },
  { pattern: '.cursorrules', controls: OTHER_AGENT },
  { pattern: '.cursor/rules/**', controls: OTHER_AGENT },
  { pattern: '.github/copilot-instructions.md', controls: OTHER_AGENT },
  { pattern: '.github/instructions/**', controls: OTHER_AGENT },
  { pattern: 'package.json', controls: 'npm scripts and git-hook settings: commands npm and git run', onlyCommandFields: true },
  { pattern: '.npmrc', controls: 'npm settings: registry, tokens, and the shell and node options scripts run with' },
  { pattern: '.yarnrc', controls: 'yarn settings: registry and the yarn binary that runs' },
  { pattern: '.yarnrc.yml', controls: 'yarn settings: registry, plugins and the yarn binary that runs' },
  { pattern: '.envrc', controls: 'direnv script: shell code run whenever you enter the folder' },
  { pattern: '.bashrc', controls: SHELL },
  { pattern: '.bash_profile', controls: SHELL },
  { pattern: '.bash_login', controls: SHELL },
  { pattern: '.profile', controls: SHELL },
  { pattern: '.zshrc', controls: SHELL },
  { pattern: '.zshenv', controls: SHELL },
  { pattern: '.zprofile', controls: SHELL },
  { pattern: '.zlogin', controls: SHELL },
  { pattern: '.config/fish/**', controls: SHELL },
  { pattern: '.ssh/**', controls: 'SSH keys and settings: authorized_keys decides who can log in' },
];
// Not here on purpose: `.env`. It holds values an app reads, not commands, and agents edit it routinely;
// asking every time would make the warning routine, which is what trains people to click Allow. Add it
// through the extra patterns when a project needs it.

/** package.json fields whose values are commands npm or git hooks run. */
export const PACKAGE_JSON_COMMAND_FIELDS = ['scripts', 'husky', 'lint-staged', 'simple-git-hooks', 'pre-commit', 'gitHooks'] as const;

export interface SensitiveMatch {
  pattern: string;
  controls: string;
  onlyCommandFields?: boolean;
}

interface Compiled extends SensitivePattern {
  test: (path: string) => boolean;
  /** Written with a leading "/": only matches from the workspace folder's root. */
  anchored: boolean;
  /**
   * Lower-cased plain text every match has: at its start (`atStart`) or anywhere. A path whose lower-cased text
   * lacks it cannot match, so the glob is not even compiled (see compileDefault). "" for extra patterns.
   */
  literal: string;
  atStart: boolean;
}

export const EXTRA_PATTERN_CONTROLS = 'listed as sensitive in your settings';

export class SensitivePaths {
  private readonly compiled: Compiled[];
  /** Extra patterns that were left out: empty, negated ("!x" cannot remove a default) or not a valid glob. */
  readonly ignored: string[] = [];

  constructor(extraPatterns: readonly string[] = []) {
    this.compiled = [...compiledDefaults()];
    for (const raw of extraPatterns) {
      const pattern = typeof raw === 'string' ? raw.trim().replace(/\\/g, '/') : '';
      if (pattern === '' || pattern.startsWith('!') || pattern === '/') {
        this.ignored.push(String(raw));
        continue;
      }
      try {
        this.compiled.push(compile({ pattern, controls: EXTRA_PATTERN_CONTROLS }));
      } catch {
        this.ignored.push(pattern);
      }
    }
  }

  /**
   * What a path controls, or undefined when it is an ordinary file. `path` is relative to its workspace
   * folder (or to the home folder, or absolute for other places); `inWorkspace` says whether anchored
   * ("/x") patterns apply.
   */
  match(path: string, inWorkspace = true): SensitiveMatch | undefined {
    const normalized = normalize(path);
    if (normalized === '') return undefined;
    const suffixes = suffixesOf(normalized);
    const lowered = suffixes.map((s) => s.toLowerCase());
    const could = (p: Compiled, lower: string) => (p.atStart ? lower.startsWith(p.literal) : lower.includes(p.literal));
    for (const p of this.compiled) {
      const hit = p.anchored
        ? inWorkspace && could(p, normalized.toLowerCase()) && p.test(normalized)
        : suffixes.some((s, i) => could(p, lowered[i]!) && p.test(s));
      if (hit) return { pattern: p.pattern, controls: p.controls, ...(p.onlyCommandFields && { onlyCommandFields: true }) };
    }
    return undefined;
  }
}

/**
 * The matcher for the host's extra patterns as they are now, built again only when they change: the gate and
 * the sandbox ask on every call, and the host re-reads its settings each time.
 */
export function sensitivePathsCache(): (extraPatterns: readonly string[]) => SensitivePaths {
  let cached: { key: string; paths: SensitivePaths } | undefined;
  return (extra) => {
    const key = JSON.stringify(extra);
    if (cached?.key !== key) cached = { key, paths: new SensitivePaths(extra) };
    return cached.paths;
  };
}

const GLOB_OPTIONS = { dot: true, nocase: true };

function globOf(p: SensitivePattern): { anchored: boolean; glob: string } {
  const anchored = p.pattern.startsWith('/');
  return { anchored, glob: (anchored ? p.pattern.slice(1) : p.pattern).replace(/\/+$/, '') };
}

/** An extra pattern from the settings: compiled now, so one that is not a valid glob is reported right away. */
function compile(p: SensitivePattern): Compiled {
  const { anchored, glob } = globOf(p);
  // A pattern also covers what is inside it when it names a folder ("secrets/" or "secrets" → "secrets/x"), as
  // in .gitignore. nocase everywhere: a false alarm costs one question; a miss on a case-insensitive disk a bypass.
  return { ...p, anchored, literal: '', atStart: true, test: picomatch([glob, `${glob}/**`], GLOB_OPTIONS) };
}

/**
 * A default pattern, compiled on the first path that could match it. Compiling all 57 up front cost the
 * CLI 15–40 ms of cold code before its first tool call could run (the largest item in a profile of the
 * per-round path), while a typical path starts like none of them. The glob's regexes are the ones picomatch
 * would build, tested the way picomatch tests them (exact text first, then the regex).
 */
function compileDefault(p: SensitivePattern): Compiled {
  const { anchored, glob } = globOf(p);
  const globs = [glob, `${glob}/**`];
  let regexes: RegExp[] | undefined;
  const test = (path: string): boolean => {
    if (path === '') return false;
    regexes ??= globs.map((g) => picomatch.makeRe(g, GLOB_OPTIONS));
    return globs.some((g, i) => path === g || regexes![i]!.test(path));
  };
  return { ...p, anchored, ...requiredLiteral(glob), test };
}

/**
 * Plain text every path the glob matches contains, lower-cased: its leading run of plain ASCII characters
 * (a match starts with it), or for a glob starting with a wildcard its longest such run (a match contains it).
 * A nocase regex matches an ASCII character only with the same letter in either case (never a non-ASCII one),
 * and picomatch puts plain characters into its regex as they are. Runs stop at any character picomatch may
 * treat specially and at non-ASCII ones, and lose their edge slashes ("x/**" matches "x" itself).
 * (test/unit/approval/sensitivePrefilter.test.ts checks the shortcut against picomatch.)
 */
export function requiredLiteral(glob: string): { literal: string; atStart: boolean } {
  if (glob.startsWith('./')) return { literal: '', atStart: true };
  const lead = /^[A-Za-z0-9._/-]*/.exec(glob)![0].replace(/\/+$/, '');
  if (lead !== '') return { literal: lead.toLowerCase(), atStart: true };
  const runs = glob.split(/[^A-Za-z0-9._/-]+/).map((r) => r.replace(/^\/+|\/+$/g, '').toLowerCase());
  return { literal: runs.reduce((a, b) => (b.length > a.length ? b : a), ''), atStart: false };
}

let defaults: readonly Compiled[] | undefined;
/** Once per process: every SensitivePaths shares the defaults, compiled or not. */
function compiledDefaults(): readonly Compiled[] {
  defaults ??= DEFAULT_SENSITIVE_PATTERNS.map(compileDefault);
  return defaults;
}

function normalize(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/(\.\/)+/g, '/')
    .replace(/\/\.$/, '')
    .replace(/\/$/, '');
}

/** "a/b/c" → ["a/b/c", "b/c", "c"]: patterns match at any depth. */
function suffixesOf(path: string): string[] {
  const parts = path.replace(/^\//, '').split('/');
  return parts.map((_, i) => parts.slice(i).join('/'));
}

/**
 * Whether a package.json change touches the fields that run commands. Unparseable JSON on either side
 * counts as "no fields", so a broken intermediate state cannot hide scripts added by the next write.
 */
export function packageJsonCommandsChanged(before: string | undefined, after: string): boolean {
  const a = commandFields(before);
  const b = commandFields(after);
  return canonicalJson(a) !== canonicalJson(b);
}

function commandFields(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
  for (const field of PACKAGE_JSON_COMMAND_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** JSON with sorted object keys: equal values give equal text whatever order the keys came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
