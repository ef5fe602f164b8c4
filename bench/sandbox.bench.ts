// What the command sandbox adds to each command: run_command (the real tool, its policy from the real workspace,
// the real runner) with the sandbox against the same tool without it, A/B alternated in one run. Commands:
// `true` (the floor: starting a shell) and `echo ok > a.txt`. The sandboxed run includes everything a user pays
// for: the policy (sensitive paths and nested repositories looked up), bubblewrap with its namespaces (a user
// namespace without capabilities, the seccomp filter), the stand-ins made and removed, the limits (prlimit; as
// root a pids cgroup), the sweep for created protected files. Also with the network allowed (no network
// namespace) and without the limits, to show what those parts cost.
// Target: under 50 ms added per command. Run: node --import tsx bench/sandbox.bench.ts [--runs 40] [--strict]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContextTracker } from '../src/core/workingContext/tracker';
import { CommandSandbox } from '../src/core/sandbox/commandSandbox';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../src/core/sandbox/sandboxSettings';
import { createRunCommandTool } from '../src/core/tools/builtin/runCommandTool';
import type { ToolContext } from '../src/core/tools/tool';
import { WorkspaceRoots } from '../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../src/node/nodeProcessRunner';
import { SandboxLauncher } from '../src/node/sandbox/sandboxLauncher';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 40;
const WARMUP = 5;
const STRICT = args.includes('--strict');
const TARGET_MS = 50;

const root = mkdtempSync(path.join(tmpdir(), 'lh-bench-sandbox-'));
const ws = path.join(root, 'ws');
// A workspace like most: a git repository with editor settings, and no agent rules (so stand-ins are made).
mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
mkdirSync(path.join(ws, '.vscode'));
writeFileSync(path.join(ws, 'package.json'), '{"name":"x"}');

const fs = new NodeFileSystem();
const roots = new WorkspaceRoots([{ name: 'ws', path: ws }], fs);
const launcher = new SandboxLauncher();
const support = launcher.support();
if (!support.available) {
  console.error(`sandbox bench: no sandbox here (${support.reason})`);
  process.exit(1);
}
const tool = createRunCommandTool();
const plainRunner = new NodeProcessRunner();
const sandboxRunner = new NodeProcessRunner({ sandbox: launcher });

function context(settings: SandboxSettings | undefined): ToolContext {
  const base = { roots, fs, tracker: new ContextTracker(), signal: new AbortController().signal };
  if (!settings) return { ...base, runner: plainRunner };
  const sandbox = new CommandSandbox({ settings: () => settings, support: () => support, hints: { network: '', off: '' } });
  return { ...base, runner: sandboxRunner, sandbox };
}

const variants = {
  plain: context(undefined),
  sandboxed: context(DEFAULT_SANDBOX_SETTINGS),
  'sandboxed, network on': context({ ...DEFAULT_SANDBOX_SETTINGS, network: true }),
  // Without the process, file size and memory limits (prlimit, and root's pids cgroup): what they cost.
  'sandboxed, no limits': context({ ...DEFAULT_SANDBOX_SETTINGS, limits: { maxProcesses: 0, maxFileSizeMB: 0, maxMemoryMB: 0 } }),
};

async function once(ctx: ToolContext, command: string): Promise<number> {
  const started = performance.now();
  const result = await tool.invoke({ command }, ctx);
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`${command} failed: ${result.content}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function main(): Promise<void> {
  let worstAdded = 0;
  for (const command of ['true', 'echo ok > a.txt']) {
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Alternated, so load on the machine falls on every variant alike.
      for (const [name, ctx] of Object.entries(variants)) {
        const ms = await once(ctx, command);
        if (i >= WARMUP) times[name]!.push(ms);
      }
    }
    const base = median(times.plain!);
    console.log(`\n\`${command}\` (${RUNS} runs each, alternated)`);
    for (const [name, xs] of Object.entries(times)) {
      const m = median(xs);
      const added = m - base;
      if (name !== 'plain') worstAdded = Math.max(worstAdded, added);
      console.log(
        `  ${name.padEnd(22)} median ${m.toFixed(1).padStart(6)} ms  p90 ${p90(xs).toFixed(1).padStart(6)} ms` +
          (name === 'plain' ? '' : `  added ${added.toFixed(1).padStart(5)} ms  ratio ${(m / base).toFixed(2)}×`),
      );
    }
  }

  launcher.dispose();
  rmSync(root, { recursive: true, force: true });
  console.log(`\nadded per sandboxed command (median, worst variant): ${worstAdded.toFixed(1)} ms (target < ${TARGET_MS} ms)`);
  if (STRICT && worstAdded >= TARGET_MS) process.exit(1);
}

void main();
