// Consent for workspace-defined MCP servers: remembered per workspace, keyed by what would run (so an edited
// definition asks again), revocable; a "no" is remembered for this window only, so the user isn't asked on every
// turn but is asked again when they start the server themselves. Pure (no 'vscode' import): the dialog and
// the workspace storage are injected.
import { approvalOverridesOf, commandLineOf, consentFingerprint, requiresConsent } from '../../mcp/serverCommand';
import type { McpConsentPort, McpServerConfig } from '../../mcp/types';
import { describeSource } from './configSources';
import { RecordStore, type MementoLike } from '../common/recordStore';

export const CONSENT_KEY = 'localharness.mcp.consent';

export interface ConsentRecord {
  fingerprint: string;
  name: string;
  commandLine: string;
  /** Where the definition was, when consent was given. */
  definedIn: string;
  /** ISO time. */
  grantedAt: string;
}

/** The subset of a vscode Memento this needs (context.workspaceState). */
export type ConsentMemento = MementoLike;

export type ConsentAnswer = 'allow' | 'deny';

/** Shows the question; undefined (dismissed) means no. */
export type ConsentAsker = (server: McpServerConfig, commandLine: string) => PromiseLike<ConsentAnswer | undefined>;

export class ConsentStore {
  private readonly records: RecordStore<ConsentRecord>;

  constructor(memento: ConsentMemento) {
    this.records = new RecordStore(memento, CONSENT_KEY, isConsentRecord, (r) => r.fingerprint);
  }

  list(): ConsentRecord[] {
    return this.records.list();
  }

  has(fingerprint: string): boolean {
    return this.records.find(fingerprint) !== undefined;
  }

  async grant(record: ConsentRecord): Promise<void> {
    await this.records.put(record);
  }

  /** Returns the records that were removed. */
  async revoke(fingerprints: readonly string[]): Promise<ConsentRecord[]> {
    return this.records.remove(fingerprints);
  }
}

function isConsentRecord(r: unknown): r is ConsentRecord {
  if (!r || typeof r !== 'object') return false;
  const c = r as Record<string, unknown>;
  return typeof c.fingerprint === 'string' && typeof c.name === 'string' && typeof c.commandLine === 'string';
}

export interface ConsentPolicyOptions {
  store: ConsentStore;
  ask: ConsentAsker;
  now?: () => Date;
  onDecision?: (server: McpServerConfig, granted: boolean, how: 'remembered' | 'asked' | 'denied earlier') => void;
}

export class ConsentPolicy {
  /** Fingerprints the user said no to in this window. */
  private readonly denied = new Set<string>();
  /** One dialog at a time: servers start in parallel, questions come one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ConsentPolicyOptions) {}

  /** The port the McpManager calls before starting a server. */
  readonly port: McpConsentPort = (server, commandLine) => this.decide(server, commandLine);

  /** The user asked to start this server: a "no" from earlier doesn't stand in the way of asking again. */
  askAgain(server: McpServerConfig): void {
    this.denied.delete(consentFingerprint(server));
  }

  wasDenied(server: McpServerConfig): boolean {
    return this.denied.has(consentFingerprint(server));
  }

  isGranted(server: McpServerConfig): boolean {
    return !requiresConsent(server.source) || this.options.store.has(consentFingerprint(server));
  }

  decide(server: McpServerConfig, commandLine = commandLineOf(server)): Promise<boolean> {
    if (!requiresConsent(server.source)) return Promise.resolve(true);
    const fingerprint = consentFingerprint(server);
    const settled = this.settled(server, fingerprint);
    if (settled !== undefined) return Promise.resolve(settled);
    const asked = this.queue.then(async () => {
      // Another question for the same definition may have been answered while this one waited.
      const meanwhile = this.settled(server, fingerprint);
      if (meanwhile !== undefined) return meanwhile;
      const answer = await this.options.ask(server, commandLine);
      const granted = answer === 'allow';
      if (granted) {
        await this.options.store.grant({
          fingerprint,
          name: server.name,
          commandLine,
          definedIn: describeSource(server.source),
          grantedAt: (this.options.now?.() ?? new Date()).toISOString(),
        });
      } else this.denied.add(fingerprint);
      this.options.onDecision?.(server, granted, 'asked');
      return granted;
    });
    // A failing dialog must not wedge every later question.
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private settled(server: McpServerConfig, fingerprint: string): boolean | undefined {
    if (this.options.store.has(fingerprint)) {
      this.options.onDecision?.(server, true, 'remembered');
      return true;
    }
    if (this.denied.has(fingerprint)) {
      this.options.onDecision?.(server, false, 'denied earlier');
      return false;
    }
    return undefined;
  }
}

/** The consent dialog's text. */
export function consentDialogText(server: McpServerConfig, commandLine: string): { message: string; detail: string } {
  const http = server.transport.type !== 'stdio';
  return {
    message: `Start the MCP server "${server.name}" defined by this workspace?`,
    detail: [
      http ? 'Local Harness will connect to:' : 'Local Harness will run this command on your computer:',
      '',
      commandLine,
      '',
      `Defined in ${describeSource(server.source)}.`,
      ...(approvalOverridesOf(server) ? [`It sets how its tools are approved: ${approvalOverridesOf(server)} (a tool that counts as read runs without asking by default).`] : []),
      http
        ? 'Its tools will be offered to the model. Allow it only if you trust this server.'
        : 'The server can do anything you can do on this computer. Allow it only if you trust this workspace and the command.',
      'If you allow it, that is remembered for this workspace until you revoke it with "Local Harness: Revoke MCP Server Consent".',
    ].join('\n'),
  };
}
