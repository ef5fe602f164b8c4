// Loads sql.js on first use only (the CLI must not pay for it when no database is opened) and finds
// its WebAssembly file: an explicit path, next to the bundle (dist/sql-wasm.wasm), or in node_modules.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { PersistenceError, describeError } from './errors';

const WASM_FILE = 'sql-wasm.wasm';
const loaded = new Map<string, Promise<SqlJsStatic>>();

/** Where sql-wasm.wasm may be, in the order we try them. */
export function wasmCandidates(explicit?: string): string[] {
  if (explicit) return [explicit];
  const out: string[] = [];
  // In the esbuild bundle __dirname is dist/, where esbuild.mjs copies the wasm, or dist/lazy/ for the
  // extension's lazily loaded parts.
  if (typeof __dirname === 'string') out.push(path.join(__dirname, WASM_FILE), path.join(__dirname, '..', WASM_FILE));
  try {
    out.push(path.join(path.dirname(localRequire().resolve('sql.js')), WASM_FILE));
  } catch {
    // Not installed beside us (a packaged extension ships only dist/).
  }
  return out;
}

export function resolveWasmPath(explicit?: string): string {
  const candidates = wasmCandidates(explicit);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new PersistenceError(
      'io',
      explicit
        ? `sql.js WebAssembly file not found at ${explicit}`
        : `sql.js WebAssembly file (${WASM_FILE}) not found; looked in: ${candidates.join(', ') || '(nowhere)'}`,
    );
  }
  return found;
}

/** sql.js, initialised once per wasm file. A failed load is not cached, so a later call can retry. */
export function loadSqlJs(wasmPath?: string): Promise<SqlJsStatic> {
  const wasm = resolveWasmPath(wasmPath);
  let pending = loaded.get(wasm);
  if (!pending) {
    pending = initialise(wasm);
    loaded.set(wasm, pending);
    pending.catch(() => loaded.delete(wasm));
  }
  return pending;
}

async function initialise(wasm: string): Promise<SqlJsStatic> {
  try {
    const mod = await import('sql.js');
    // CJS module seen through ESM interop: the init function is the default export or the module itself.
    const init = (mod.default ?? mod) as unknown as typeof mod.default;
    return await init({ locateFile: (file: string) => (file === WASM_FILE ? wasm : path.join(path.dirname(wasm), file)) });
  } catch (err) {
    throw new PersistenceError('io', `Could not load sql.js from ${wasm}: ${describeError(err)}`, { cause: err });
  }
}

function localRequire(): NodeJS.Require {
  // CJS (tsx, the esbuild bundle) has `require`; under pure ESM resolve from the working directory.
  return typeof require === 'function' ? require : createRequire(path.join(process.cwd(), 'index.js'));
}
