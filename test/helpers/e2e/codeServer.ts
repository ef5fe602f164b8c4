// Runs code-server (a real VS Code) for one test file: a fresh profile, with the .vsix installed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CODE_SERVER_ENTRY, E2E_CACHE, NODE24 } from './paths';
import { runProcess } from './proc';

/** User settings that keep the workbench quiet and screenshots stable (see E2E.md). */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.reduceMotion': 'on',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'remote.autoForwardPorts': false,
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'files.autoSave': 'off',
};

export interface CodeServerOptions {
  vsix: string;
  /** Folder for this run's profile, extensions and XDG dirs; keep it short (Unix socket paths < 108 chars). */
  baseDir: string;
  /** Extra user settings (the test's `localharness.*` settings), merged over QUIET_SETTINGS. */
  settings?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's own stdout+stderr so far (bounded). */
  output(): string;
  /** Stops code-server and everything it spawned (the whole process group). */
  stop(): Promise<void>;
}

const KEEP_OUTPUT = 200_000;

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  if (!existsSync(CODE_SERVER_ENTRY) || !existsSync(NODE24)) {
    throw new Error('code-server or Node 24 is missing: run `bash scripts/setup-e2e.sh` first');
  }
  const userDataDir = path.join(options.baseDir, 'ud');
  for (const dir of [userDataDir, path.join(userDataDir, 'User')]) mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(userDataDir, 'User/settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2),
  );
  const env = codeServerEnv(options.baseDir, options.env);
  const extensionsDir = await installedExtension(options.vsix, env, options.signal);
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  const port = await freePort();
  const child = spawn(
    NODE24,
    [
      CODE_SERVER_ENTRY,
      ...common,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--ignore-last-opened',
    ],
    // Detached: code-server becomes a process-group leader so stop() can kill its long-lived children too.
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const append = (d: string) => (output = (output + d).slice(-KEEP_OUTPUT));
  child.stdout!.setEncoding('utf8').on('data', append);
  child.stderr!.setEncoding('utf8').on('data', append);
  const killOnExit = () => killGroup(child, 'SIGKILL');
  // A crashed or interrupted test run must not leave code-server behind.
  process.once('exit', killOnExit);

  try {
    await waitForListening(child, () => output, options.signal);
  } catch (err) {
    killGroup(child, 'SIGKILL');
    process.removeListener('exit', killOnExit);
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    userDataDir,
    extensionsDir,
    output: () => output,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      killGroup(child, 'SIGTERM');
      const exited = await waitForExit(child, 5_000);
      // The file watcher child can outlive the main process: always finish the group off.
      killGroup(child, 'SIGKILL');
      if (!exited) await waitForExit(child, 2_000);
    },
  };
}

/** code-server's environment: XDG dirs and a short TMPDIR under baseDir, Node 24 first on PATH. */
function codeServerEnv(baseDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const tmpDir = path.join(baseDir, 't');
  mkdirSync(tmpDir, { recursive: true });
  return {
    ...process.env,
    ...extra,
    XDG_CONFIG_HOME: path.join(baseDir, 'xc'),
    XDG_DATA_HOME: path.join(baseDir, 'xd'),
    XDG_CACHE_HOME: path.join(baseDir, 'xh'),
    TMPDIR: tmpDir,
    // The test runner may run under Node 20; code-server needs its own Node first on PATH.
    PATH: `${path.dirname(NODE24)}:${process.env.PATH ?? ''}`,
  };
}

/**
 * Installs the package into the shared extensions folder now, so that e2e files started together find it
 * installed instead of installing it into the same folder at once (scripts/run-tests.mjs calls this first).
 */
export async function installExtensionOnce(vsix: string, signal?: AbortSignal): Promise<string> {
  const baseDir = mkdtempSync('/tmp/lhi-');
  try {
    return await installedExtension(vsix, codeServerEnv(baseDir), signal);
  } finally {
    rmSync(baseDir, { recursive: true, force: true });
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function waitForListening(child: ChildProcess, output: () => string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`code-server did not start in 60 s:\n${output()}`)), 60_000);
    const check = () => {
      if (/HTTP server listening/.test(output())) done();
    };
    const onExit = (code: number | null) => done(new Error(`code-server exited (${code}) before listening:\n${output()}`));
    const onAbort = () => done(new Error('aborted while starting code-server'));
    const done = (err?: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    check();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * An extensions folder with this package installed, made once per package: installing takes code-server a few
 * seconds per test file. Made before the files start (installExtensionOnce), so files running together share it.
 */
async function installedExtension(vsix: string, env: NodeJS.ProcessEnv, signal: AbortSignal | undefined): Promise<string> {
  const root = path.join(E2E_CACHE, 'extensions');
  const dir = path.join(root, path.basename(vsix, '.vsix'));
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;
  mkdirSync(root, { recursive: true });
  // Folders of packages that were pruned (packageExtension keeps a few) go with them.
  for (const name of readdirSync(root)) {
    if (!existsSync(path.join(path.dirname(vsix), `${name}.vsix`))) rmSync(path.join(root, name), { recursive: true, force: true });
  }
  // Installed in place: code-server records the folder's absolute path in its extensions.json.
  rmSync(dir, { recursive: true, force: true });
  const userDataDir = mkdtempSync(path.join(env.TMPDIR ?? '/tmp', 'install-'));
  await runProcess(NODE24, [CODE_SERVER_ENTRY, '--user-data-dir', userDataDir, '--extensions-dir', dir, '--install-extension', vsix, '--force'], {
    env,
    timeoutMs: 120_000,
    signal,
  });
  rmSync(userDataDir, { recursive: true, force: true });
  writeFileSync(marker, vsix);
  return dir;
}
