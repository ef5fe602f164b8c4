// Entry point of dist/cli.js. Exit codes: 0 ok, 1 the task failed, 2 usage error.
import { parseCli, UsageError, USAGE } from '../args';
import { killTrackedChildren } from '../../mcp/processes';
import { runLastWords } from '../lastWords';

/** How long the work may take to wind down after Ctrl-C or SIGTERM before the process exits anyway. */
const STOP_GRACE_MS = 2000;

/** Set when the reader of stdout went away (`localharness sessions | head -1`). */
let stdoutClosed = false;

async function main(): Promise<number> {
  const controller = new AbortController();
  // A reader that stops reading is not an error: stop the work and exit quietly, without a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    stdoutClosed = true;
    controller.abort();
  });
  let options;
  try {
    const argv = process.argv.slice(2);
    // `acp` takes run's flags (src/cli/acp/acpArgs.ts); loaded only for it.
    options = argv[0] === 'acp' ? { ...(await import('../acp/acpArgs')).parseAcpCli(argv, process.env, process.cwd()), command: 'acp' as const } : parseCli(argv, process.env, process.cwd());
  } catch (e) {
    if (e instanceof UsageError) {
      // One line: the mistake and where the help is, not 80 lines of usage burying it.
      process.stderr.write(`localharness: ${oneLine(e.message)} (see: localharness --help)\n`);
      return 2;
    }
    throw e;
  }
  if (options.command === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (options.command === 'version') {
    process.stdout.write(`${typeof VERSION === 'string' ? VERSION : 'dev'}\n`);
    return 0;
  }
  const exitNow = (why: string) => {
    // Never leave MCP server processes behind, whatever is still stopping.
    killTrackedChildren();
    runLastWords();
    process.stderr.write(`localharness: ${why}; stopped the MCP servers and exiting\n`);
    process.exit(130);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) exitNow(`${signal} again`);
    controller.abort();
    // Stopping should take well under a second; if something still holds on, one signal is still enough.
    setTimeout(() => exitNow(`still stopping ${STOP_GRACE_MS / 1000} s after ${signal}`), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (options.command === 'sessions') {
      const { sessionsCommand } = await import('../sessionsCommand');
      return await sessionsCommand(options, process.stdout);
    }
    if (options.command === 'index') {
      const { indexCommand } = await import('../indexCommand');
      return await indexCommand(options, { stdout: process.stdout, stderr: process.stderr }, controller.signal);
    }
    if (options.command === 'query') {
      const { queryCommand } = await import('../queryCommand');
      return await queryCommand(options, { stdout: process.stdout, stderr: process.stderr }, controller.signal);
    }
    if (options.command === 'doctor') {
      const { doctorCommand } = await import('../doctorCommand');
      return await doctorCommand(options, { stdout: process.stdout, stderr: process.stderr, env: process.env }, controller.signal);
    }
    if (options.command === 'mcp') {
      const { mcpCommand } = await import('../mcpCommand');
      return await mcpCommand(options, { stdout: process.stdout, stderr: process.stderr }, controller.signal);
    }
    if (options.command === 'acp') {
      const { acpCommand } = await import('../acp/acpCommand');
      return await acpCommand({ ...options, command: 'run' }, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }, controller.signal);
    }
    // Loaded lazily so `--help` and usage errors stay instant.
    const { runCommand } = await import('../runCommand');
    return await runCommand(options, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }, controller.signal);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: unknown })?.code === 'not-a-database') {
      process.stderr.write(`localharness: ${oneLine((e as Error).message)}\n`);
      return 2;
    }
    process.stderr.write(`localharness: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ');
}

declare const VERSION: string;

main().then(
  (code) => {
    process.exitCode = stdoutClosed ? 0 : code;
  },
  (e) => {
    process.stderr.write(`localharness: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
