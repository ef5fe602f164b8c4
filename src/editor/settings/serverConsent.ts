// Consent for a model server named by the workspace's settings: asked once, before the first request that would
// go there; the answer (Allow or Deny) is remembered per workspace, keyed by the exact server, and revocable from
// "Manage Approval Rules". A dismissed dialog (Escape, Cancel) means no for this window only. Pure (no 'vscode'
// import): the dialog and the workspace storage are injected.
import type { HarnessSettings } from './harnessSettings';
import { RecordStore, type MementoLike } from '../common/recordStore';
import {
  destinationKey,
  destinationOf,
  originOf,
  providerLabel,
  withDestination,
  type ServerDestination,
  type ServerResolution,
} from './serverSettings';

export const SERVER_CHOICES_KEY = 'localharness.modelServer.choices';

export type ServerAnswer = 'allow' | 'deny';

export interface ServerChoice extends ServerDestination {
  decision: ServerAnswer;
  /** ISO time. */
  decidedAt: string;
}

/** The subset of a vscode Memento this needs (context.workspaceState). */
export type ChoiceMemento = MementoLike;

export class ServerChoiceStore {
  private readonly records: RecordStore<ServerChoice>;

  constructor(memento: ChoiceMemento) {
    this.records = new RecordStore(memento, SERVER_CHOICES_KEY, isServerChoice, destinationKey);
  }

  list(): ServerChoice[] {
    return this.records.list();
  }

  find(destination: ServerDestination): ServerChoice | undefined {
    return this.records.find(destinationKey(destination));
  }

  async record(choice: ServerChoice): Promise<void> {
    await this.records.put(choice);
  }

  /** Returns the records that were removed. */
  async revoke(destinations: readonly ServerDestination[]): Promise<ServerChoice[]> {
    return this.records.remove(destinations.map(destinationKey));
  }
}

function isServerChoice(c: unknown): c is ServerChoice {
  if (!c || typeof c !== 'object') return false;
  const r = c as Record<string, unknown>;
  return (r.provider === 'ollama' || r.provider === 'openai') && typeof r.url === 'string' && (r.decision === 'allow' || r.decision === 'deny');
}

export interface ServerQuestion {
  /** The server the workspace names. */
  workspace: ServerDestination;
  /** The user's own server (used on Deny). */
  user: ServerDestination;
}

/** Shows the question; undefined (dismissed) means no. */
export type ServerAsker = (question: ServerQuestion) => PromiseLike<ServerAnswer | undefined>;

export type PickHow = 'user settings' | 'remembered' | 'asked' | 'dismissed' | 'not asked yet';

export interface ServerPick {
  settings: HarnessSettings;
  /** Whose server the settings send to. */
  source: 'user' | 'workspace';
  how: PickHow;
}

export interface ServerConsentOptions {
  store: ServerChoiceStore;
  ask: ServerAsker;
  now?: () => Date;
  onDecision?: (question: ServerQuestion, answer: ServerAnswer | undefined) => void;
}

export class ServerConsent {
  /** Servers whose dialog was dismissed in this window (no, until revoked or the window reloads). */
  private readonly dismissed = new Set<string>();
  private pending: { key: string; answer: Promise<ServerPick> } | undefined;
  /** One dialog at a time: a model listing and a turn may both want an answer. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ServerConsentOptions) {}

  /** Without asking: a remembered answer applies; an undecided workspace server is not used (the user's is). */
  current(resolution: ServerResolution): ServerPick {
    return this.settled(resolution) ?? { settings: resolution.user.settings, source: 'user', how: 'not asked yet' };
  }

  /** Before a request: asks once when the workspace names another server and nobody has answered yet. */
  settle(resolution: ServerResolution): Promise<ServerPick> {
    const known = this.settled(resolution);
    if (known) return Promise.resolve(known);
    const workspace = resolution.workspace!;
    const key = destinationKey(workspace);
    if (this.pending?.key === key) return this.pending.answer;
    const answer = this.queue.then(async () => {
      // Answered while this call waited for another dialog.
      const meanwhile = this.settled(resolution);
      if (meanwhile) return meanwhile;
      const question: ServerQuestion = { workspace, user: destinationOf(resolution.user.settings) };
      const reply = await this.options.ask(question);
      if (reply === undefined) this.dismissed.add(key);
      else await this.options.store.record({ ...workspace, decision: reply, decidedAt: (this.options.now?.() ?? new Date()).toISOString() });
      this.options.onDecision?.(question, reply);
      return this.pick(resolution, reply === 'allow', reply === undefined ? 'dismissed' : 'asked');
    });
    const entry = { key, answer };
    this.pending = entry;
    // A failing dialog must not wedge later questions; the failure itself reaches the caller.
    this.queue = answer.catch(() => undefined).finally(() => {
      if (this.pending === entry) this.pending = undefined;
    });
    return answer;
  }

  /** After a revoke: dismissed dialogs ask again too. */
  forgetDismissed(): void {
    this.dismissed.clear();
  }

  private settled(resolution: ServerResolution): ServerPick | undefined {
    const workspace = resolution.workspace;
    if (!workspace) return { settings: resolution.user.settings, source: 'user', how: 'user settings' };
    const remembered = this.options.store.find(workspace);
    if (remembered) return this.pick(resolution, remembered.decision === 'allow', 'remembered');
    if (this.dismissed.has(destinationKey(workspace))) return this.pick(resolution, false, 'dismissed');
    return undefined;
  }

  private pick(resolution: ServerResolution, allowed: boolean, how: PickHow): ServerPick {
    return allowed && resolution.workspace
      ? { settings: withDestination(resolution.user.settings, resolution.workspace), source: 'workspace', how }
      : { settings: resolution.user.settings, source: 'user', how };
  }
}

export const SERVER_ALLOW = 'Allow' as const;
export const SERVER_DENY = 'Deny' as const;

/**
 * The dialog's buttons, the non-sending answer first: the first button is the default one, so pressing Enter on
 * a dialog that popped up under the cursor keeps the code on the user's server.
 */
export const SERVER_BUTTONS = [SERVER_DENY, SERVER_ALLOW] as const;

export function answerForButton(button: string | undefined): ServerAnswer | undefined {
  return button === SERVER_ALLOW ? 'allow' : button === SERVER_DENY ? 'deny' : undefined;
}

/** The question's text. */
export function serverDialogText(question: ServerQuestion): { message: string; detail: string } {
  const { workspace, user } = question;
  const origin = originOf(workspace.url) ?? workspace.url;
  return {
    message: `This workspace sets the model server to ${workspace.url}. Send your code there?`,
    detail: [
      `If you allow it, your messages, the files the agent reads and the results of its tools are sent to ${workspace.url} (${providerLabel(workspace.provider)}).`,
      `Your own settings use ${user.url} (${providerLabel(user.provider)}); Deny keeps using it.`,
      `Your API key is never sent to ${origin} unless you stored a key for that server with "Local Harness: Set API Key".`,
      'The answer is remembered for this workspace; change it with "Local Harness: Manage Approval Rules".',
    ].join('\n\n'),
  };
}

/** "Model server for this workspace: http://… (allowed)", for the rules list. */
export function describeServerChoice(choice: ServerChoice): string {
  return `Model server for this workspace: ${choice.url} (${choice.decision === 'allow' ? 'allowed' : 'denied'})`;
}
