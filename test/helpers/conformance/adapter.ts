// The client command the official MCP conformance suite runs for each scenario (`adapter <server-url>`, the
// scenario in MCP_CONFORMANCE_SCENARIO and its data in MCP_CONFORMANCE_CONTEXT). It configures Local Harness the
// way a user would (an MCP config file, secrets in the environment, a fresh token file) and drives the real CLI:
// `mcp list` for the handshake, otherwise `run` against a scripted model (a wire-faithful fake OpenAI-compatible
// server) that calls the scenario's tool. Sign-ins go through $BROWSER (a stand-in that follows the redirects);
// elicitation is answered on a terminal (`script` gives the CLI a pty; a scripted user types the answers).
// Bundled by the conformance test and run with the project's Node.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAIServer, type ChatBody, type ScriptedReply } from '../fakeLlm';
import { drives, mayFail, needsTerminal, scenarioSetup } from './scenarioConfig';
import { argumentsFor, runInTerminal, shellQuote } from './terminal';

interface OfferedTool {
  function: { name: string; parameters?: Record<string, unknown> };
}

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const cli = process.env.LOCALHARNESS_CLI;
const browser = process.env.LOCALHARNESS_BROWSER;

/** Calls the conformance server's tool once, then finishes with what it said. */
function scriptedModel(calls: string[]): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const messages = (request.messages ?? []) as Array<{ role: string; content?: unknown }>;
    const last = messages.at(-1);
    if (last?.role === 'tool') return { toolCalls: [{ name: 'task_completion', arguments: { result: `The tool said: ${String(last.content).slice(0, 200)}` } }] };
    const offered = ((request.tools ?? []) as OfferedTool[]).filter((t) => t.function.name.startsWith('conf__'));
    // The schema-preservation scenario asks for the schema the model was shown to be echoed back.
    const echo = offered.find((t) => t.function.name === 'conf__json_schema_echo');
    const focal = offered.find((t) => t !== echo);
    if (echo && focal) {
      calls.push(echo.function.name);
      return { toolCalls: [{ name: echo.function.name, arguments: { schema: focal.function.parameters ?? {} } }] };
    }
    const tool = offered[0];
    if (!tool) return { toolCalls: [{ name: 'task_completion', arguments: { result: 'The conformance server offered no tool.' } }] };
    calls.push(tool.function.name);
    return { toolCalls: [{ name: tool.function.name, arguments: argumentsFor(tool.function.parameters) }] };
  };
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli!, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  if (!serverUrl || !scenario || !cli || !browser) {
    process.stderr.write('usage: MCP_CONFORMANCE_SCENARIO=… LOCALHARNESS_CLI=… LOCALHARNESS_BROWSER=… adapter <server-url>\n');
    return 2;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-conformance-'));
  const ws = path.join(dir, 'ws');
  mkdirSync(ws);
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;
  const setup = scenarioSetup(scenario, serverUrl, context, dir);
  const config = path.join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ servers: setup.servers }, null, 2));
  const env = { ...process.env, ...setup.env, XDG_CONFIG_HOME: path.join(dir, 'config'), BROWSER: browser };
  if (drives(scenario) === 'list') return runCli(['mcp', 'list', '--mcp-config', config, '--workspace', ws], env);

  const calls: string[] = [];
  // A model loaded with a 32k window: the tool definitions fit without being shortened.
  const llm = await startFakeOpenAIServer(scriptedModel(calls), { name: `conformance ${scenario}`, models: [{ id: 'scripted', maxContextLength: 32768, loadedContextLength: 32768 }] });
  try {
    const args = ['run', '--provider', 'openai', '--base-url', llm.url, '--model', 'scripted', '--workspace', ws, '--mcp-config', config, '--approve', 'all', "Use the conf server's tool."];
    let code: number;
    if (needsTerminal(scenario)) {
      // The scripted user: answers the form, takes every default (an empty line).
      const run = await runInTerminal(shellQuote([process.execPath, cli, ...args]), env, (screen) => (/Answer\? \[y\]es.*: $/.test(screen) ? 'y\r' : /\S: $/.test(screen) ? '\r' : undefined));
      process.stdout.write(run.output);
      code = run.code;
    } else {
      code = await runCli([...args.slice(0, -1), '--json', args.at(-1)!], env);
    }
    if (code !== 0) return code;
    if (calls.length === 0 && !mayFail(scenario)) {
      process.stderr.write(`adapter: the CLI finished, but its model never saw a tool of the conformance server (${scenario})\n`);
      return 1;
    }
    return 0;
  } finally {
    await llm.close();
  }
}

/** For the suite's parallel mode, which does not look at exit codes: the test reads this file instead. */
function record(code: number): void {
  const dir = process.env.LOCALHARNESS_CONFORMANCE_RESULTS;
  if (dir && scenario) writeFileSync(path.join(dir, `${scenario.replace(/\//g, '_')}.json`), JSON.stringify({ exitCode: code }));
}

main().then(
  (code) => {
    record(code);
    process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`adapter: ${(err as Error)?.stack ?? String(err)}\n`);
    record(1);
    process.exit(1);
  },
);
