// The flags of `run` about what commands get: --command-env (their environment), --allow-network-for's prefixes
// checked as commands, and --trust-mcp-config; each bad value is a usage error.
import { passthroughProblem } from '../core/shell/commandEnv';
import { parseSimpleCommand } from '../core/shell/simpleCommand';
import { UsageError } from './usageError';

/** Options of `run` only, on top of args.ts's RUN_ONLY list. */
export const COMMAND_RUN_ONLY = ['command-env', 'trust-mcp-config'];

/** --command-env NAME (repeatable): each a variable name, never one of Local Harness's own. */
export function commandEnvNames(names: readonly string[]): string[] {
  for (const name of names) {
    const problem = passthroughProblem(name.trim());
    if (problem) throw new UsageError(`--command-env: ${problem}`);
  }
  return [...new Set(names.map((n) => n.trim()))];
}

/** --allow-network-for PREFIX: a prefix that is not one plain command would never match; say so now. */
export function networkPrefixes(prefixes: readonly string[] | undefined): void {
  // An empty one is sandboxFlags' to report.
  for (const prefix of (prefixes ?? []).filter((p) => p.trim() !== '')) {
    const parsed = parseSimpleCommand(prefix);
    if (!parsed.ok) throw new UsageError(`--allow-network-for "${prefix}": a prefix names one plain command (like "npm install"), but ${parsed.reason}`);
  }
}
