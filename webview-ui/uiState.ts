// Small UI state that survives a webview reload (vscode.setState): the draft, scroll, open panels.
// Never the conversation: the host owns that and sends a snapshot.
import * as z from 'zod/mini';
import { MAX_USER_MESSAGE } from '../src/shared/protocol';
import type { VsCodeApi } from './host';

const UiStateSchema = z.object({
  draft: z.catch(z.string().check(z.maxLength(MAX_USER_MESSAGE)), ''),
  hotContextOpen: z.catch(z.boolean(), false),
  /** Absent until the History view was first toggled. */
  historyOpen: z.catch(z.optional(z.boolean()), undefined),
  /** Null while following the stream at the bottom. */
  scrollTop: z.catch(z.nullable(z.number().check(z.nonnegative())), null),
  /** The model last shown, so a reloaded panel's picker is never empty while the host lists the models. */
  model: z.catch(z.optional(z.string().check(z.maxLength(500))), undefined),
});
export type UiState = z.infer<typeof UiStateSchema>;

const DEFAULTS: UiState = { draft: '', hotContextOpen: false, scrollTop: null };

export class UiStateStore {
  private state: UiState;

  constructor(private readonly api: VsCodeApi) {
    // Whatever an older version (or nothing) left behind: take what still fits, default the rest.
    const parsed = UiStateSchema.safeParse(api.getState() ?? {});
    this.state = parsed.success ? parsed.data : { ...DEFAULTS };
  }

  get(): UiState {
    return this.state;
  }

  patch(change: Partial<UiState>): void {
    const next = { ...this.state, ...change };
    if (
      next.draft === this.state.draft &&
      next.hotContextOpen === this.state.hotContextOpen &&
      next.historyOpen === this.state.historyOpen &&
      next.scrollTop === this.state.scrollTop &&
      next.model === this.state.model
    ) {
      return;
    }
    this.state = next;
    this.api.setState(next);
  }
}
