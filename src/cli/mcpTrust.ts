// A changed --mcp-config file is never started without asking. The CLI remembers, per file, a hash of the contents
// the user last ran (in the user's config folder, beside the MCP sign-ins); when the contents differ — or a file
// inside the workspace is used for the first time, since the repository (or a command the model ran) may have
// written it — the servers are listed and asked about on a terminal, and refused without one unless the user
// passed --trust-mcp-config. A file outside the workspace run for the first time is the user's own choice.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { McpServerConfig } from '../mcp/types';
import { commandLineOf } from '../mcp/serverCommand';
import { privateDirectory, writeFileAtomicSync } from '../persistence/atomicFile';
import { defaultAuthFile } from './fileAuthStore';
import { UsageError } from './usageError';

interface TrustFile {
  version: 1;
  /** Real path of the config file → sha256 of the contents last run. */
  files: Record<string, string>;
}

/** `…/localharness/mcp-trust.json`, beside the sign-ins file. */
export function defaultTrustFile(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(defaultAuthFile(env)), 'mcp-trust.json');
}

export interface McpTrustOptions {
  configPath: string;
  workspace: string;
  servers: readonly McpServerConfig[];
  /** --trust-mcp-config */
  trusted: boolean;
  trustFile: string;
  /** Asks on a terminal; undefined when there is none. Resolves true for yes. */
  ask?: ((question: string) => Promise<boolean>) | undefined;
  warn: (message: string) => void;
}

/** Resolves when the servers may start (and remembers the contents); throws a UsageError when they may not. */
export async function checkMcpTrust(options: McpTrustOptions): Promise<void> {
  const real = realOrSelf(path.resolve(options.configPath));
  const hash = createHash('sha256').update(readFileSync(real)).digest('hex');
  const store = readTrust(options.trustFile);
  const last = store.files[real];
  if (last === hash) return;
  const inWorkspace = isInside(real, realOrSelf(path.resolve(options.workspace)));
  if (last === undefined && !inWorkspace) return remember(options.trustFile, real, hash);
  const why = last === undefined ? `${options.configPath} is inside the workspace and has not been run before` : `${options.configPath} changed since you last ran it`;
  const list = options.servers.map((s) => `  ${s.name}: ${commandLineOf(s)}`).join('\n') || '  (no servers)';
  if (options.trusted) {
    options.warn(`${why}; starting its servers as --trust-mcp-config says:\n${list}`);
    return remember(options.trustFile, real, hash);
  }
  if (!options.ask) {
    throw new UsageError(`${why}, so its MCP servers were not started:\n${list}\nCheck the file, then run on a terminal to answer, or pass --trust-mcp-config to start them.`);
  }
  const yes = await options.ask(`${why}. It starts these MCP servers (outside the sandbox, with your rights):\n${list}\nStart them? [y]es / [N]o: `);
  if (!yes) throw new UsageError(`the MCP servers of ${options.configPath} were not started (you said no).`);
  remember(options.trustFile, real, hash);
}

function readTrust(file: string): TrustFile {
  try {
    // Only a file of ours that nobody else may write counts: anything else could have been planted.
    const stat = lstatSync(file);
    const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (!stat.isFile() || !mine || (process.platform !== 'win32' && (stat.mode & 0o022) !== 0)) return { version: 1, files: {} };
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<TrustFile>;
    if (data && data.version === 1 && data.files && typeof data.files === 'object') return { version: 1, files: { ...data.files } };
  } catch {
    // Missing or unreadable: nothing was remembered, so every file counts as new (asked when in the workspace).
  }
  return { version: 1, files: {} };
}

function remember(file: string, real: string, hash: string): void {
  const data = readTrust(file);
  data.files[real] = hash;
  // Files that are gone (temporary folders) are forgotten, so the record stays small.
  for (const known of Object.keys(data.files)) if (!existsSync(known)) delete data.files[known];
  // Not remembered where the folder is not private (every later run asks again, which is safe).
  if (!privateDirectory(path.dirname(file))) return;
  writeFileAtomicSync(file, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A yes/no question on the terminal; undefined without one (the caller then refuses). */
export function ttyYesNo(input: NodeJS.ReadableStream & { isTTY?: boolean }, output: NodeJS.WritableStream): ((question: string) => Promise<boolean>) | undefined {
  if (!input.isTTY) return undefined;
  return async (question) => {
    const { createInterface } = await import('node:readline');
    const rl = createInterface({ input, output });
    try {
      const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
      return /^(y|yes)$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  };
}
