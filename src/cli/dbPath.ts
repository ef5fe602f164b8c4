// Where the CLI keeps sessions when asked to: --db FILE, or LOCALHARNESS_DB. Without either, nothing is stored,
// so a plain `run` never loads SQLite.
export function defaultDbPath(env: NodeJS.ProcessEnv): string | undefined {
  return env.LOCALHARNESS_DB || undefined;
}
