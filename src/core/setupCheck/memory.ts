// Where a setup check's result is kept and how a session uses it: the report per server and model (the editor's
// global state, the CLI's --db file), the working window's memory (a smaller window is budgeted from the first
// request), and the tool protocol a session starts in (text-based calls for a model that failed the probe).
import { z } from 'zod';
import type { KeyValuePort } from '../window/calibration';
import { writeRememberedWindow } from '../window/workingWindow';
import type { ChatProvider } from '../provider';
import type { CheckedToolProtocol } from '../toolProtocol/protocolSetting';
import { CALL_SYNTAX_IDS, isFamilySyntax, SYNTAX_NAMES } from '../toolProtocol/callSyntaxes';
import type { SetupReport } from './report';
import type { SetupCheckResult } from './runSetupCheck';

export function setupReportKey(providerId: string, baseUrl: string, model: string): string {
  return `setupCheck:${providerId}:${baseUrl}:${model}`;
}

const verdict = z.enum(['ok', 'info', 'limited', 'failed', 'skipped']);
const finding = z.looseObject({ verdict, summary: z.string(), details: z.array(z.string()), fix: z.string().optional(), reason: z.string().optional() });
const reportSchema = z.looseObject({
  version: z.literal(1),
  checkedAt: z.number(),
  provider: z.enum(['ollama', 'openai']),
  baseUrl: z.string(),
  model: z.string(),
  server: finding.extend({ reachable: z.boolean(), models: z.array(z.string()) }),
  window: finding.extend({ budget: z.number().optional() }),
  tools: finding.extend({
    setting: z.enum(['auto', 'native', 'xml']),
    protocol: z.enum(['native', 'xml']).optional(),
    // A syntax a later version no longer knows is forgotten, not the whole report.
    callSyntax: z.enum(CALL_SYNTAX_IDS).optional().catch(undefined),
  }),
  speed: finding,
  cache: finding.extend({ state: z.enum(['works', 'none', 'unknown']) }),
  embedding: finding.extend({ models: z.array(z.looseObject({ name: z.string(), ok: z.boolean() })) }),
  overall: z.object({ verdict: z.enum(['ready', 'limited', 'unusable']), summary: z.string(), reasons: z.array(z.string()) }),
});

/** The stored report, or undefined when there is none or it is unreadable (an unreadable one is no report). */
export async function loadSetupReport(store: KeyValuePort, providerId: string, baseUrl: string, model: string): Promise<SetupReport | undefined> {
  try {
    const raw = await store.get(setupReportKey(providerId, baseUrl, model));
    if (!raw) return undefined;
    const parsed = reportSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as unknown as SetupReport) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the report in every store, and the window it found where the working window looks for it
 * (src/core/window/workingWindow.ts), so the next session budgets it from its first request.
 */
export async function keepSetupCheck(stores: readonly KeyValuePort[], provider: ChatProvider, result: SetupCheckResult): Promise<void> {
  const { report, remember } = result;
  for (const store of stores) {
    await store.set(setupReportKey(report.provider, report.baseUrl, report.model), JSON.stringify(report));
    if (remember) await writeRememberedWindow(store, provider, report.model, remember === 'forget' ? undefined : remember);
  }
}

/**
 * The prompt speed a stored setup check measured, for a process that has not seen this server read yet (the CLI's
 * `run` after `doctor`, the editor after a restart): the first long read is then given the time it needs.
 */
export async function recallPromptSpeed(store: KeyValuePort, provider: ChatProvider, model: string): Promise<void> {
  if (!provider.notePromptSpeed) return;
  const report = await loadSetupReport(store, provider.id, provider.baseUrl, model);
  const speed = report?.speed.promptTokensPerSecond;
  if (typeof speed === 'number' && speed > 0) provider.notePromptSpeed(model, speed, true);
}

/**
 * The setup check's say on a session's tool protocol (with `auto`; src/core/resilience/turnHooks.ts asks): a model
 * the check found not calling tools natively starts with text-based calls, and the notice says why.
 */
export function checkedToolProtocol(store: KeyValuePort): CheckedToolProtocol {
  return async (provider, model) => {
    const report = await loadSetupReport(store, provider.id, provider.baseUrl, model);
    if (!report) return undefined;
    const when = new Date(report.checkedAt).toISOString().slice(0, 10);
    const syntax = report.tools.callSyntax;
    if (report.tools.protocol === 'native' && isFamilySyntax(syntax)) {
      return {
        protocol: 'native',
        callSyntax: syntax!,
        notice: `The setup check (${when}) found that ${report.model} writes its tool calls as text in its own format (${SYNTAX_NAMES[syntax!]}); they are read and run as tool calls.`,
      };
    }
    if (report.tools.protocol !== 'xml') return undefined;
    return {
      protocol: 'xml',
      ...(syntax && { callSyntax: syntax }),
      notice: `The setup check (${when}) found that ${report.model} does not call tools natively; using text-based tool calls (<tool> blocks) from the start. Run the check again after changing the model or the server.`,
    };
  };
}
