// `localharness acp [flags]`: the same flags as `run` (model server, approvals, sandbox, --db, --mcp-config,
// --config …) without a TASK — the prompts come from the client. Parsed by run's own parser, so every flag means
// the same in both commands.
import { parseCli, UsageError, type RunOptions } from '../args';

/** Stands for the missing TASK while run's parser checks the flags. */
const NO_TASK = '\u0000acp';

export function parseAcpCli(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): RunOptions {
  const flags = argv[0] === 'acp' ? argv.slice(1) : [...argv];
  const options = parseCli(['run', ...flags, '--', NO_TASK], env, cwd);
  if (options.command !== 'run') throw new UsageError('acp takes the flags of run');
  if (options.task !== NO_TASK) throw new UsageError('acp takes no TASK: the prompts come from the ACP client');
  for (const [given, flag] of [[options.json, '--json'], [options.session !== undefined, '--session'], [options.resume, '--resume']] as const) {
    if (given) throw new UsageError(`${flag} does not apply to acp (the client loads stored sessions with session/load)`);
  }
  return { ...options, task: '' };
}
