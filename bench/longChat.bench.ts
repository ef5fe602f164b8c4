// Per-tool-call host overhead as the conversation grows, without VS Code: the editor's host-side pieces for a
// turn (AgentSession built from the editor's composition root, editorPorts.ts, the LoggingProvider wrapper, the ChatStateStore fed from the
// EventBus, the webview bridge posting to a port that serialises like VS Code does, the status bar text, the log
// lines, the session recorder on a real sql.js file in a temp dir, the context manager) driven by an in-process
// scripted model that answers every call at once with a short markdown text and one read_file call.
// The conversation grows the way the e2e long-conversation test grows it (turns of ROUNDS model calls); each
// round's host time (wall time minus the time spent inside the scripted model) is sampled at 10, 1,000 and 2,000
// messages.
// `--http`: the real Ollama provider against the fake Ollama server (test/helpers/fakeLlm) running in a child
// process, as in the e2e test; the host's share is then its CPU time per round (the server's is elsewhere).
// Run: node --import tsx bench/longChat.bench.ts [--http]   (LONGCHAT_ROUNDS=200 LONGCHAT_MESSAGES=2000 by default)
// Like the extension entry point: zod is configured (jitless) before any schema exists.
import '../src/shared/zodSetup';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventBus, type AgentEvent } from '../src/core/agent/events';
import { ApprovalGate } from '../src/core/approval/gate';
import { ContextTracker } from '../src/core/workingContext/tracker';
import type { ChatMessage } from '../src/core/messages';
import type { ChatProvider, ChatRequest, ModelInfo, StreamDelta } from '../src/core/provider';
import { NodeFileSystem } from '../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../src/node/nodeProcessRunner';
import { createProvider } from '../src/providers';
import { startFakeOllamaServer, type ChatBody, type ScriptedReply } from '../test/helpers/fakeLlm';
import type { HostToWebview } from '../src/shared/protocol';
import type { AgentSession } from '../src/core/session/agentSession';
import { editorSession } from '../test/helpers/editorSession';
import { LoggingProvider } from '../src/editor/engine/loggingProvider';
import { createToolRegistry } from '../src/editor/engine/turnEngine';
import { ChatStateStore } from '../src/editor/chat/chatStateStore';
import { WebviewBridge } from '../src/editor/chat/webviewBridge';
import { describeEventForLog } from '../src/editor/log/eventLog';
import { Logger, type LogSink } from '../src/editor/log/logger';
import { EditorSessionService } from '../src/editor/history/sessionService';
import { DEFAULT_SETTINGS, type HarnessSettings } from '../src/editor/settings/harnessSettings';
import { statusText, statusTooltip } from '../src/editor/status/statusText';

const ROUNDS = Number(process.env.LONGCHAT_ROUNDS ?? 200);
const TARGET = Number(process.env.LONGCHAT_MESSAGES ?? 2000);
/** History sizes to report, and how many rounds to sample at each. */
const POINTS = [10, Math.round(TARGET / 2), TARGET];
const SAMPLES = Number(process.env.LONGCHAT_SAMPLES ?? 25);
const NOTES = 20;
const WINDOW = 1_048_576;
const MODEL = 'bench-model';

/** A model that answers every call immediately: markdown text in a few pieces and one read_file call. */
class ScriptedModel implements ChatProvider {
  readonly id = 'ollama' as const;
  readonly baseUrl = 'inprocess://bench';
  readonly capabilities = { thinking: true, keepAlive: true, tools: true, jsonMode: true, streaming: true, embeddings: false, contextSizeApi: true };
  private steps = 0;
  /** Set by the driver: the next reply ends the turn (plain text). */
  finalNext = false;
  /** Time spent inside chat() (the model's share of a round, not the host's). */
  modelMs = 0;

  async *chat(request: ChatRequest): AsyncIterable<StreamDelta> {
    const started = performance.now();
    let inside = started;
    const step = ++this.steps;
    const reply = replyFor(step, this.finalNext);
    const text = reply.text!;
    const deltas: StreamDelta[] = [];
    for (let i = 0; i < text.length; i += 40) deltas.push({ type: 'text', text: text.slice(i, i + 40) });
    for (const c of reply.toolCalls ?? []) deltas.push({ type: 'tool_call', call: { id: `call_${step}`, name: c.name, arguments: c.arguments } });
    deltas.push({ type: 'usage', promptTokens: request.messages.length * 40, completionTokens: deltas.length });
    deltas.push({ type: 'done', finishReason: this.finalNext ? 'stop' : 'tool_calls' });
    this.modelMs += performance.now() - inside;
    for (const d of deltas) {
      yield d; // the consumer (host) runs between these
      inside = performance.now();
      this.modelMs += performance.now() - inside;
    }
  }

  async listModels(): Promise<ModelInfo[]> {
    return [{ name: MODEL, contextLength: WINDOW, capabilities: ['completion', 'tools'] }];
  }

  async modelInfo(model: string): Promise<ModelInfo> {
    return { name: model, contextLength: WINDOW, capabilities: ['completion', 'tools'] };
  }
}

/** The e2e test's reply: a short markdown text and one read_file call, or the turn's final answer. */
function replyFor(step: number, final: boolean): ScriptedReply {
  const text =
    step % 5 === 0
      ? `Step ${step}: checking the **next** note.\n\n\`\`\`ts\nconst step = ${step};\n\`\`\``
      : `Step ${step}: the value is \`${step * 7}\`; see [docs](https://example.com/${step}).`;
  if (final) return { text: `${text}\n\nAll notes read.` };
  return { text, chunkSize: 40, toolCalls: [{ name: 'read_file', arguments: { path: `notes/n${step % NOTES}.md` } }] };
}

/** `--serve` (the child of `--http`): the fake Ollama server; a turn's user message says how many rounds it has. */
async function serve(): Promise<void> {
  let steps = 0;
  const server = await startFakeOllamaServer((body: ChatBody) => {
    // Nothing here needs old requests; with the whole history in each body they add up to gigabytes.
    server.requests.length = 0;
    server.log.length = 0;
    const messages = body.messages ?? [];
    let user = messages.length - 1;
    while (user >= 0 && messages[user]!.role !== 'user') user--;
    const rounds = Number(/\[\[rounds=(\d+)\]\]/.exec(String(messages[user]?.content ?? ''))?.[1] ?? 1);
    const round = messages.slice(user + 1).filter((m) => m.role === 'assistant').length;
    return replyFor(++steps, round >= rounds - 1);
  }, { name: 'longChat', models: [{ name: MODEL, contextLength: WINDOW, capabilities: ['completion', 'tools', 'thinking'] }] });
  process.stdout.write(`${server.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

async function startServerProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`the fake server exited (${code})`)));
  });
  return { url, stop: () => child.stdin!.end() };
}

const nullSink: LogSink = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

interface Sample {
  messages: number;
  /** Wall time of the round minus the in-process model's own time (in-process mode). */
  roundMs: number;
  /** CPU time this process spent in the round (user + system). */
  cpuMs: number;
  toolMs: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-longchat-'));
  const ws = path.join(dir, 'ws');
  mkdirSync(path.join(ws, 'notes'), { recursive: true });
  for (let i = 0; i < NOTES; i++) writeFileSync(path.join(ws, 'notes', `n${i}.md`), `# Note ${i}\n\nSome text in note ${i}.\n`);

  // What extension.ts and HarnessController wire up.
  const log = new Logger(nullSink);
  const store = new ChatStateStore({ contextSize: WINDOW });
  const bus = new EventBus();
  const sessions = new EditorSessionService({ dbPath: path.join(dir, 'sessions.db'), warn: (m) => console.warn(`[sessions] ${m}`) });
  bus.on((event) => store.applyAgentEvent(event));
  bus.on((event) => sessions.onEvent(event));
  bus.on((event) => {
    const line = describeEventForLog(event);
    if (line) log.write(line.level, line.message);
  });
  let statusKey = '';
  store.subscribe(() => {
    const { context, busy } = store.state;
    const info = { model: MODEL, used: context.used, available: context.available, busy };
    statusKey = `${statusText(info)}\n${statusTooltip(info)}`;
  });
  // The webview: VS Code serialises every posted message; the panel asked for its snapshot on `ready`.
  let posted = 0;
  const bridge = new WebviewBridge(store, log);
  bridge.attach({
    postMessage: async (message: HostToWebview) => {
      posted += JSON.stringify(message).length;
      return true;
    },
  });
  bridge.receive({ type: 'ready' });

  const http = process.argv.includes('--http') ? await startServerProcess() : undefined;
  const model = new ScriptedModel();
  const provider = new LoggingProvider(http ? createProvider({ provider: 'ollama', baseUrl: http.url, keepAlive: '30m' }) : model, log);
  const fs = new NodeFileSystem();
  const tracker = new ContextTracker();
  const registry = createToolRegistry();
  const gate = new ApprovalGate({ policy: { autoApprove: ['read'], rules: [] }, ask: async () => ({ approved: false, reason: 'bench' }) });
  const settings: HarnessSettings = { ...DEFAULT_SETTINGS, model: MODEL, contextSize: WINDOW, maxRounds: ROUNDS };
  const folders = [{ name: 'ws', path: ws }];

  const samples: Sample[] = [];
  let history: ChatMessage[] = [];
  let session: AgentSession | undefined;
  let roundStart = 0;
  let cpuAtRoundStart = process.cpuUsage();
  let modelAtRoundStart = 0;
  let toolCallAt = 0;
  let toolMs = 0;
  let messagesAtRound = 0;
  bus.on((e: AgentEvent) => {
    const now = performance.now();
    if (e.type === 'round_start' || e.type === 'turn_end') {
      if (roundStart > 0 && toolMs > 0) {
        const cpu = process.cpuUsage(cpuAtRoundStart);
        samples.push({ messages: messagesAtRound, roundMs: now - roundStart - (model.modelMs - modelAtRoundStart), cpuMs: (cpu.user + cpu.system) / 1000, toolMs });
      }
      roundStart = e.type === 'round_start' ? now : 0;
      cpuAtRoundStart = process.cpuUsage();
      modelAtRoundStart = model.modelMs;
      messagesAtRound = session?.history.length ?? 0;
      toolMs = 0;
    } else if (e.type === 'tool_call') {
      toolCallAt = now;
    } else if (e.type === 'tool_result') {
      toolMs = now - toolCallAt;
    }
  });

  const turn = async (text: string, rounds: number) => {
    const recording = await sessions.forTurn(text, { model: MODEL, provider: 'ollama' });
    if (!recording) throw new Error('the session database did not open');
    session ??= editorSession(
      { registry, gate, tracker, fs, runner: new NodeProcessRunner(), bus, panel: store },
      { provider, model: MODEL, settings, access: 'all', folders, systemInfo: { os: process.platform, shell: 'bash', workspaceFolders: [ws] }, recording },
      history,
    );
    history = session.history;
    model.finalNext = false;
    let round = 0;
    const off = bus.on((e) => {
      if (e.type === 'round_start') model.finalNext = ++round >= rounds;
    });
    await recording.recorder.beginTurn();
    const outcome = await session.send(`${text} [[rounds=${rounds}]]`, new AbortController().signal);
    await recording.recorder.endTurn();
    off();
    if (outcome.reason !== 'completed') throw new Error(`turn ended with ${outcome.reason}: ${outcome.error ?? ''}`);
  };

  const started = performance.now();
  let turns = 0;
  // Grow to TARGET, then one short turn measured at TARGET.
  while ((session?.history.length ?? 0) + 2 * ROUNDS <= TARGET) {
    await turn(`Read the notes, pass ${++turns}.`, ROUNDS);
    process.stderr.write(`  … ${session!.history.length} messages after ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const remaining = TARGET - (session?.history.length ?? 0);
  if (remaining > 2) await turn(`Read the notes, pass ${++turns}.`, Math.floor(remaining / 2));
  await turn('Read a few more notes.', SAMPLES + 2);
  const totalS = (performance.now() - started) / 1000;
  // Every round, for a closer look: LONGCHAT_DUMP=rounds.csv
  if (process.env.LONGCHAT_DUMP) {
    writeFileSync(process.env.LONGCHAT_DUMP, ['messages,roundMs,cpuMs,toolMs', ...samples.map((s) => `${s.messages},${s.roundMs.toFixed(3)},${s.cpuMs.toFixed(3)},${s.toolMs.toFixed(3)}`)].join('\n'));
  }
  await sessions.dispose();
  bridge.detach();
  http?.stop();
  rmSync(dir, { recursive: true, force: true });

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const at = (n: number) => {
    // The SAMPLES rounds starting nearest to n messages (skipping the first two of the chat: warm-up).
    const eligible = samples.filter((s, i) => i >= 2 && s.messages >= n);
    return eligible.slice(0, SAMPLES);
  };
  const rows = POINTS.map((n) => {
    const picked = at(n);
    const m = (f: (s: Sample) => number) => median(picked.map(f));
    const mean = picked.reduce((sum, s) => sum + s.roundMs, 0) / picked.length;
    return { n, round: m((s) => s.roundMs), mean, cpu: m((s) => s.cpuMs), tool: m((s) => s.toolMs) };
  });
  const fmt = (ms: number) => ms.toFixed(2).padStart(10);
  const mode = http ? 'Ollama provider + fake server in a child process' : 'in-process model';
  console.log(`\nLong chat: host overhead per tool call (read_file), ${mode}, ${samples.length} rounds in ${turns + 1} turns, ${totalS.toFixed(1)} s`);
  console.log(`median of ${SAMPLES} rounds; round = wall time${http ? ' (incl. the server)' : ' minus the model'}, cpu = this process's CPU time`);
  console.log('messages |   round ms | round mean |     cpu ms | tool_call→result ms');
  for (const r of rows) console.log(`${String(r.n).padStart(8)} | ${fmt(r.round)} | ${fmt(r.mean)} | ${fmt(r.cpu)} | ${fmt(r.tool)}`);
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const ratio = (f: (r: (typeof rows)[number]) => number) => `${(f(last) / f(first)).toFixed(2)}×`;
  console.log(`ratio ${last.n}/${first.n}: round ${ratio((r) => r.round)}, cpu ${ratio((r) => r.cpu)}, tool_call→result ${ratio((r) => r.tool)}`);
  console.log(`(webview posts: ${(posted / 1024).toFixed(0)} KiB serialised; status "${statusKey.split('\n')[0]}")`);
}

(process.argv.includes('--serve') ? serve() : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
