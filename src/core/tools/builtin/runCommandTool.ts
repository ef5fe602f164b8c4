// run_command: a shell command through the ProcessRunner, in a workspace directory, with a timeout and capped output,
// in the command sandbox when there is one (core/sandbox): the policy goes to the runner, and output showing that
// the sandbox blocked something is said plainly to the model, with the offer to run it once without (the executor).
import { z } from 'zod';
import { defineTool, fail, ok, type ApprovalDescription, type ToolContext } from '../tool';
import { errorMessage, fsErrorMessage, lenientNumber, resolvePath, type ResolvedPath } from './common';
import { ToolInputError } from './fileChange';
import type { SandboxPolicy } from '../../ports';
import { describeBlocks, removedNote, sandboxBlocks, sandboxNote } from '../../sandbox/sandboxBlocks';
import { CheckpointingFileSystem } from '../../checkpoints/checkpointingFileSystem';

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
      const description: ApprovalDescription = {
        title: `Run \`${oneLine(args.command)}\` in ${where}`,
        detail: `${args.command}\n\nDirectory: ${where}\nTimeout: ${seconds(timeoutOf(args))}`,
        command: args.command,
      };
      return withSandboxInfo(description, args.command, ctx);
    },
    async invoke(args, ctx) {
      const planned = await planCwd(args, ctx);
      if (!planned.ok) return fail(planned.message);
      const timeoutMs = timeoutOf(args);
      const sandbox = ctx.sandbox;
      let policy: SandboxPolicy | undefined;
      let result;
      try {
        if (sandbox?.confines() && !ctx.grant?.unconfined) policy = await sandbox.policy(args.command, ctx.roots, ctx.fs, ctx.grant);
        const run = () => ctx.runner.run(args.command, { cwd: planned.cwd.abs, timeoutMs, signal: ctx.signal, maxOutputChars, ...(policy && { sandbox: policy }) });
        // A recorded session checkpoints what the command changes too (restore to a message covers it).
        result = ctx.fs instanceof CheckpointingFileSystem ? await ctx.fs.checkpointCommand(ctx.roots.folders.map((f) => f.path), run) : await run();
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
      const done = result.exitCode === 0 && !result.timedOut && !result.cancelled ? ok(content) : fail(content);
      const blocks = policy && !result.cancelled ? sandboxBlocks(output, policy, result) : [];
      // Protected files made under names the sandbox could not hold: gone before anything reads them.
      const removed = policy && sandbox?.sweep ? await sandbox.sweep(policy, ctx.fs).catch(() => []) : [];
      if (removed.length > 0) blocks.unshift(removedNote(removed));
      if (blocks.length === 0 || !sandbox) return done;
      const note = sandboxNote(blocks, sandbox.hints, policy?.limits);
      const failed = removed.length > 0 ? fail(content) : done;
      return { ...failed, content: `${content}\n${note}`, escalate: { reason: `the sandbox blocked ${describeBlocks(blocks, policy?.limits)}` } };
    },
  });
}

/** What the dialog says about the sandbox: none although required (always asked), or what the command may reach. */
function withSandboxInfo(description: ApprovalDescription, command: string, ctx: ToolContext): ApprovalDescription {
  const sandbox = ctx.sandbox;
  if (!sandbox) return description;
  const missing = sandbox.unconfinedReason();
  if (missing) {
    const warning = `\u26a0 No sandbox: ${missing}. This command would run with your full rights (any file you can change, the network). It is asked every time.`;
    return { ...description, detail: `${warning}\n\n${description.detail}`, unsandboxed: { reason: missing } };
  }
  if (!sandbox.confines()) return description;
  const network = sandbox.networkFor(command);
  const line = `Sandbox: writes only inside the workspace (sensitive files read-only); network ${network ? 'allowed' : 'off'}.`;
  return { ...description, detail: `${description.detail}\n${line}`, ...(!network && { networkOffer: true }) };
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
