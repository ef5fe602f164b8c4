// `localharness doctor`: the setup check against the configured server and model. Says what it will send before
// it sends anything, prints each finding (or, with --json, one document), and with --db keeps the result for
// `run --db` (the tool protocol and the window a session starts with).
import { systemClock } from '../core/ports';
import type { KeyValuePort } from '../core/window/calibration';
import { kvPortOf } from '../persistence/kvPort';
import { keepSetupCheck } from '../core/setupCheck/memory';
import { setupCheckPlan } from '../core/setupCheck/setupCheckPlan';
import { renderSetupReport } from '../core/setupCheck/renderText';
import { runSetupCheck } from '../core/setupCheck/runSetupCheck';
import { createProvider } from '../providers/index';
import { requestWaits } from './requestWaits';
import type { DoctorOptions } from './doctorArgs';
import { loadCliConfig } from './cliConfig';
import { defaultDbPath } from './dbPath';
import { readRememberedWindow } from '../core/window/workingWindow';

export interface DoctorIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/** 0: ready or usable with limits; 1: not usable. */
export async function doctorCommand(options: DoctorOptions, io: DoctorIo, signal: AbortSignal): Promise<number> {
  const config = loadCliConfig(options.config);
  const provider = createProvider({
    provider: options.provider,
    firstByteTimeoutMs: options.firstByteTimeoutMs,
    ...requestWaits(io.env, (message) => io.stderr.write(`  ${message}\n`)),
    ...(options.baseUrl && { baseUrl: options.baseUrl }),
    ...(options.apiKey && { apiKey: options.apiKey }),
  });
  const embeddingModels = { ...(options.embedModel && { tools: options.embedModel }) };
  const plan = setupCheckPlan({ baseUrl: provider.baseUrl, ...(options.model && { model: options.model }), embeddingModels });
  io.stderr.write(`localharness doctor: ${plan.summary}\n${plan.lines.map((l) => `  - ${l}\n`).join('')}`);

  const dbPath = options.db ?? defaultDbPath(io.env);
  const kept = dbPath ? await openKv(dbPath, (m) => io.stderr.write(`localharness: ${m}\n`)) : undefined;
  try {
    const result = await runSetupCheck({
      provider,
      ...(options.model && { model: options.model }),
      ...(options.numCtx !== undefined && { contextSize: options.numCtx }),
      toolProtocol: options.toolProtocol ?? config.agent.toolProtocol ?? 'auto',
      embeddingModels,
      ...(kept && { recall: (model: string) => readRememberedWindow(kept.kv, provider, model) }),
      clock: systemClock,
      signal,
      onProgress: (step) => io.stderr.write(`  ${step}\n`),
    });
    const { report } = result;
    if (kept && report.server.reachable && report.model) {
      try {
        await keepSetupCheck([kept.kv], provider, result);
        io.stderr.write(`localharness: kept in ${dbPath}; \`run --db ${dbPath}\` with this server and model starts from it.\n`);
      } catch (err) {
        io.stderr.write(`localharness: could not keep the result in ${dbPath}: ${(err as Error).message ?? String(err)}\n`);
      }
    }
    if (!kept && report.server.reachable && report.model) io.stderr.write('localharness: not kept: pass --db FILE (or set LOCALHARNESS_DB) so that `run --db FILE` starts from this result.\n');
    io.stdout.write(options.json ? JSON.stringify(report) + '\n' : renderSetupReport(report));
    return report.overall.verdict === 'unusable' ? 1 : 0;
  } finally {
    await kept?.close();
  }
}

async function openKv(path: string, warn: (message: string) => void): Promise<{ kv: KeyValuePort; close(): Promise<void> }> {
  const { SessionStore } = await import('../persistence/sessionStore');
  const store = await SessionStore.open(path);
  for (const notice of store.notices) warn(notice.message);
  return {
    kv: kvPortOf(store),
    close: () => store.close(),
  };
}
