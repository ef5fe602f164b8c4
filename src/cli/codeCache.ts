// Runs the CLI bundle through V8's code cache. The CLI is run as many short processes (scripts, agents, tests),
// and compiling its bundle is a real part of each one's start and of its first rounds: functions compile lazily
// the first time they run, and the compiled code is what young-generation GCs then copy around.
// The cache is written when the process exits, not right after compiling, so it holds every function that ran
// (V8 caches only the top level otherwise). A run of the agent loop writes the thorough one that the rest
// prefer; other commands write one only when there is none. V8 rejects a cache made by another V8 version or
// flags, and the file name carries a hash of the bundle, so a stale cache is never used.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { privateDirectory, writeFileAtomicSync } from '../persistence/atomicFile';

/** Set (to true) on globalThis by the bundle when the process runs the agent loop. */
export const AGENT_RAN = Symbol.for('localharness.agentLoopRan');

export interface CodeCacheOptions {
  /** The CommonJS bundle to run. */
  file: string;
  /** Where caches are kept; undefined runs the bundle without one. */
  dir: string | undefined;
}

export function runWithCodeCache(options: CodeCacheOptions): void {
  const source = readFileSync(options.file, 'utf8');
  // Code read from a cache runs as this process: a folder someone else made or can write is not used.
  const dir = options.dir !== undefined && privateDirectory(options.dir) ? options.dir : undefined;
  const key = createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 24);
  const thoroughFile = dir && path.join(dir, `${key}.agent.bin`);
  const plainFile = dir && path.join(dir, `${key}.bin`);
  const thoroughData = thoroughFile ? readIfPresent(thoroughFile) : undefined;
  const cachedData = thoroughData ?? (plainFile ? readIfPresent(plainFile) : undefined);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: options.file,
    ...(cachedData && { cachedData }),
  });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  const hadThorough = accepted && thoroughData !== undefined;
  if (dir) {
    process.once('exit', () => {
      const agentRan = (globalThis as Record<symbol, unknown>)[AGENT_RAN] === true;
      const target = agentRan && !hadThorough ? thoroughFile : !accepted ? plainFile : undefined;
      if (target) writeAtomically(target, script.createCachedData());
    });
  }
  const mod = { exports: {}, filename: options.file, id: options.file, loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, createRequire(options.file), mod, options.file, path.dirname(options.file));
  mod.loaded = true;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Two processes may finish at once: each writes its own temp file and renames it into place. */
function writeAtomically(file: string, data: Buffer): void {
  try {
    writeFileAtomicSync(file, data, { mode: 0o600 });
  } catch {
    // A cache that cannot be written only costs the next process its compile time.
  }
}
