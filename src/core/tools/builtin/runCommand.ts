// run_command: a shell command through the ProcessRunner, in a workspace directory, with a timeout and capped output.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext } from '../tool';
import { errorMessage, fsErrorMessage, lenientNumber, resolvePath, type ResolvedPath } from './common';
import { ToolInputError } from './fileChange';

export interface RunCommandOptions {
  defaultTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** Characters of output kept (head and tail). */
  maxOutputChars?: number;
}

const schema = z.object({
  command: z.string(),
  cwd: z.string().optional(),
  timeout_ms: lenientNumber(1).optional(),
});
type Args = z.infer<typeof schema>;

type CwdPlan = { ok: true; cwd: ResolvedPath } | { ok: false; message: string };

async function planCwd(args: Args, ctx: ToolContext): Promise<CwdPlan> {
  if (args.command.trim() === '') return { ok: false, message: 'command is empty. Give the shell command line to run.' };
  const resolved = await resolvePath(ctx, args.cwd ?? '.');
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const cwd = resolved.path;
  try {
    const stat = await ctx.fs.lstat(cwd.abs);
    if (!stat) return { ok: false, message: `cwd "${cwd.rel}" does not exist. Use a directory inside the workspace, or omit cwd.` };
    if (stat.kind !== 'directory') return { ok: false, message: `cwd "${cwd.rel}" is not a directory.` };
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, cwd.rel) };
  }
  return { ok: true, cwd };
}

export function createRunCommandTool(options: RunCommandOptions = {}) {
  const defaultTimeout = options.defaultTimeoutMs ?? 120_000;
  const maxTimeout = options.maxTimeoutMs ?? 600_000;
  const maxOutputChars = options.maxOutputChars ?? 16_000;
  const timeoutOf = (args: Args) => Math.min(Math.max(Math.floor(args.timeout_ms ?? defaultTimeout), 1), maxTimeout);

  return defineTool({
    name: 'run_command',
    description: `Run a shell command in the workspace or cwd (timeout ${defaultTimeout / 1000} s unless timeout_ms is set).`,
    schema,
    risk: 'execute',
    async describeForApproval(args, ctx) {
      const planned = await planCwd(args, ctx);
      if (!planned.ok) throw new ToolInputError(planned.message);
      const where = planned.cwd.rel === '.' ? './' : `./${planned.cwd.rel}`;
      return {
        title: `Run \`${oneLine(args.command)}\` in ${where}`,
        detail: `${args.command}\n\nDirectory: ${where}\nTimeout: ${seconds(timeoutOf(args))}`,
        command: args.command,
      };
    },
    async invoke(args, ctx) {
      const planned = await planCwd(args, ctx);
      if (!planned.ok) return fail(planned.message);
      const timeoutMs = timeoutOf(args);
      let result;
      try {
        result = await ctx.runner.run(args.command, { cwd: planned.cwd.abs, timeoutMs, signal: ctx.signal, maxOutputChars });
      } catch (err) {
        return fail(`Could not start the command: ${errorMessage(err)}`);
      }
      const output = cleanTerminalOutput(result.output).trimEnd();
      const body = output === '' ? '(no output)' : output;
      let status: string;
      if (result.cancelled) status = 'Cancelled by the user; the command was stopped.';
      else if (result.timedOut) {
        status = `Timed out after ${seconds(timeoutMs)} and was killed. If it needs longer, pass a larger timeout_ms (max ${maxTimeout}); if it waits for input or runs forever (a server, a watcher), run a command that finishes on its own.`;
      } else if (result.exitCode === null) status = 'The command was killed by a signal.';
      else status = `Exit code ${result.exitCode}.`;
      const content = `${body}\n[${status}]`;
      return result.exitCode === 0 && !result.timedOut && !result.cancelled ? ok(content) : fail(content);
    },
  });
}

/** Colour codes and progress-bar redraws cost tokens and mean nothing to the model: keep what a terminal would show. */
export function cleanTerminalOutput(text: string): string {
  const noAnsi = text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
  return noAnsi
    .split('\n')
    .map((line) => {
      const body = line.endsWith('\r') ? line.slice(0, -1) : line;
      const cut = body.lastIndexOf('\r');
      return cut < 0 ? body : body.slice(cut + 1);
    })
    .join('\n');
}

function oneLine(command: string): string {
  const first = command.trim().split('\n')[0]!;
  const shown = first.length > 120 ? first.slice(0, 120) + '…' : first;
  return command.trim().includes('\n') ? shown + ' …' : shown;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
