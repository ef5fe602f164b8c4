// `localharness run`: one turn of the agent on a workspace, from the command line.
import { cliImages } from './cliImages';
import path from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { buildSession } from '../builder/buildSession';
import { EventBus, type AgentEvent } from '../core/agent/events';
import { ApprovalGate } from '../core/approval/gate';
import { NodeFileSystem } from '../node/nodeFileSystem';
import { CheckpointingFileSystem } from '../core/checkpoints/checkpointingFileSystem';
import { openCliSession, type CliSession } from './cliPersistence';
import { savedRunOf, unfinishedRun } from '../persistence/planRuns';
import type { SavedRun } from '../core/orchestrator';
import { defaultDbPath } from './dbPath';
import { loadCliConfig } from './cliConfig';
import { autoApproved, UsageError, type RunOptions } from './args';
import { jsonRenderer, textRenderer } from './render';
import { ttyApprovalAsker } from './ttyApproval';
import { AGENT_RAN } from './codeCache';
import { createCliSandbox } from './cliSandbox';
import { promptFileTask } from './promptFileTask';
import { chooseModel, cliKnowledge, cliProviders, cliRegistry, cliSessionBuild } from './cliPorts';

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Returns the process exit code: 0 normal end, 1 failure. */
export async function runCommand(options: RunOptions, io: CliIo, signal: AbortSignal): Promise<number> {
  const workspace = path.resolve(options.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);

  const config = loadCliConfig(options.config);
  const bus = new EventBus();
  const out = { write: (s: string) => void io.stdout.write(s) };
  const err = { write: (s: string) => void io.stderr.write(s) };
  // `stored` is opened below, before any turn starts.
  bus.on(options.json ? jsonRenderer(out, () => stored?.id) : textRenderer(out, err, !!io.stdout.isTTY));
  let lastError: string | undefined;
  bus.on((e: AgentEvent) => {
    if (e.type === 'error') lastError = e.message;
  });

  const { provider, makeProvider } = cliProviders(options, (message) => bus.emit({ type: 'status', message }));
  const chosen = await chooseModel(options, provider, signal);
  if ('error' in chosen) return fail(chosen.error);
  const model = chosen.model;

  const dbPath = options.db ?? defaultDbPath(process.env);
  let stored: CliSession | undefined;
  if (dbPath) {
    stored = await openCliSession(
      dbPath,
      options.session,
      { title: options.task, model, provider: options.provider },
      (m) => io.stderr.write(`localharness: ${m}\n`),
      config.checkpointLimitBytes,
    );
    bus.on((e) => stored!.onEvent(e));
    io.stderr.write(`localharness: session ${stored.id}\n`);
  } else if (options.session) {
    throw new UsageError('--session needs --db FILE (or LOCALHARNESS_DB)');
  }

  const nodeFs = new NodeFileSystem();
  const fs = stored ? new CheckpointingFileSystem(nodeFs, stored.checkpoints) : nodeFs;
  const registry = cliRegistry();
  const warn = (m: string) => io.stderr.write(`localharness: ${m}\n`);
  let mcp: { dispose(interrupted?: boolean): Promise<void> } | undefined;
  if (options.mcpConfig) {
    const [{ startCliMcp, runFeatures }, { canSignInHere }, { defaultTrustFile, ttyYesNo }] = await Promise.all([import('./cliMcp'), import('./cliAuth'), import('./mcpTrust')]);
    const features = await runFeatures({
      workspace,
      input: io.stdin,
      output: io.stderr,
      allowSampling: options.allowSampling,
      provider,
      model,
      notice: warn,
      signal,
    });
    mcp = await startCliMcp(options.mcpConfig, workspace, {
      registry,
      warn,
      features,
      signal,
      interactive: canSignInHere(io.stdin, io.stderr, process.env),
      output: io.stderr,
      env: process.env,
      trust: { trusted: options.trustMcpConfig === true, trustFile: defaultTrustFile(process.env), ask: ttyYesNo(io.stdin, io.stderr) },
    });
  }
  const knowledge = await cliKnowledge(options, stored, workspace, provider, fs, bus);
  const asker = ttyApprovalAsker(io.stdin, io.stderr);
  const gate = new ApprovalGate({
    policy: { autoApprove: autoApproved(options.approve), rules: [] },
    ...(asker && { ask: asker }),
    allowSensitive: options.allowSensitive,
    onSensitiveDenied: (request) =>
      warn(
        `denied a change to ${request.description.sensitive?.paths.join(', ')} (a sensitive file): it is always asked, and there is no terminal to ask on. ` +
          'Run on a terminal to approve it, or pass --approve all --allow-sensitive to allow such changes.',
      ),
  });

  // The MCP configuration this run started with stays read-only to commands, wherever it is.
  const protectedFiles = options.mcpConfig ? [path.resolve(options.mcpConfig)] : [];
  const confined = createCliSandbox(options.sandbox, (message) => bus.emit({ type: 'notice', message }), protectedFiles);
  const session = buildSession(cliSessionBuild({ options, config, workspace, provider, makeProvider, model, registry, gate, fs, confined, bus, ...(stored && { stored }), ...(knowledge && { knowledge }) }));

  let outcome;
  try {
    // --resume: the stored run, not a new request (args made sure --session and the planner flags are there).
    let resumable: SavedRun | undefined;
    if (options.resume) {
      const run = stored && unfinishedRun(stored.planRuns);
      if (!run) return fail(`session ${stored?.id ?? options.session} has no unfinished planned run to resume`);
      io.stderr.write(`localharness: resuming the planned run at step ${run.steps.findIndex((st) => !run.records.some((r) => r.stepId === st.id)) + 1} of ${run.steps.length}\n`);
      resumable = savedRunOf(run);
    }
    const seen = await cliImages(options.images ?? [], process.cwd(), provider, model, options.vision ?? 'auto', signal);
    if (!seen.ok) return fail(seen.message);
    await stored?.beginTurn();
    const task = resumable ? undefined : await promptFileTask(options.task, fs, [{ name: path.basename(workspace), path: workspace }]);
    outcome = resumable ? await session.resumePlan(resumable, signal) : await session.send(task!.text, signal, undefined, options.mode ?? task!.mode, task!.tools, seen);
    // The code cache written at exit now holds the whole round path (see codeCache.ts).
    (globalThis as Record<symbol, unknown>)[AGENT_RAN] = true;
    await stored?.endTurn();
  } finally {
    confined.dispose();
    await mcp?.dispose(signal.aborted);
    await stored?.close();
  }
  if (outcome.reason === 'completed' || outcome.reason === 'task_completion' || outcome.reason === 'ask_question') return 0;
  // The text renderer already printed error events; JSON mode (and a silent cancel) still owe stderr one line.
  if (options.json || lastError === undefined) io.stderr.write(`${oneLine(outcome.error ?? lastError ?? `turn ended: ${outcome.reason}`)}\n`);
  return 1;

  function fail(message: string): number {
    bus.emit({ type: 'error', message });
    if (options.json) io.stderr.write(oneLine(message) + '\n');
    return 1;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
