// Where the editor keeps setup check results: the report per server and model in global state (the model picker
// reads it), the window it found also in the sessions database (recorded sessions read their window memory
// there). No 'vscode' import: the integration tests use exactly this.
import type { KeyValuePort } from '../../core/window/calibration';
import type { ChatProvider } from '../../core/provider';
import { keepSetupCheck, loadSetupReport } from '../../core/setupCheck/memory';
import type { SetupReport } from '../../core/setupCheck/report';
import type { SetupCheckResult } from '../../core/setupCheck/runSetupCheck';
import type { ModelCheck } from '../../shared/protocol';
import { readRememberedWindow } from '../../core/window/workingWindow';

export interface SetupCheckMemoryDeps {
  /** The editor's global state (the same port token calibration uses). */
  global: KeyValuePort;
  /** The sessions database's key/value table, when this window may write it. */
  sessionsKv?: () => Promise<KeyValuePort | undefined>;
}

type Server = Pick<ChatProvider, 'id' | 'baseUrl'>;

export class SetupCheckMemory {
  constructor(private readonly deps: SetupCheckMemoryDeps) {}

  report(server: Server, model: string): Promise<SetupReport | undefined> {
    return loadSetupReport(this.deps.global, server.id, server.baseUrl, model);
  }

  /** The verdicts of the listed models the check looked at (the chat's model picker shows them). */
  async verdicts(server: Server, models: readonly string[]): Promise<ModelCheck[]> {
    const out: ModelCheck[] = [];
    for (const model of models.slice(0, 500)) {
      const report = await this.report(server, model);
      if (report) out.push({ model, verdict: report.overall.verdict, summary: report.overall.summary });
    }
    return out;
  }

  /** The smaller window an earlier session found, where sessions look first (the database), else global state. */
  async recallWindow(provider: ChatProvider, model: string): Promise<{ tokens: number; base: number } | undefined> {
    const db = await this.sessionsKv();
    return (db && (await readRememberedWindow(db, provider, model))) ?? readRememberedWindow(this.deps.global, provider, model);
  }

  async keep(provider: ChatProvider, result: SetupCheckResult): Promise<void> {
    const db = await this.sessionsKv();
    await keepSetupCheck(db ? [this.deps.global, db] : [this.deps.global], provider, result);
  }

  private async sessionsKv(): Promise<KeyValuePort | undefined> {
    try {
      return await this.deps.sessionsKv?.();
    } catch {
      return undefined; // no database: global state still holds everything
    }
  }
}
