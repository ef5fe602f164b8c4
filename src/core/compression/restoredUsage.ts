// The context meter right after a stored conversation is opened: no request has been prepared yet, so there is no
// server count; estimate what the next request will carry of the history (evicted messages out, the running
// summary in) so the meter does not read 0 until the next turn. The next turn's real count replaces it.
import type { ChatMessage } from '../messages';
import { HistoryView, type ContextState } from './view';
import { TokenMeter } from '../window/meter';
import { systemMessage } from '../prompt/requestLayout';

/** A generous cap for the summary's share: the exact cap depends on the window, unknown before the first call. */
const SUMMARY_TOKENS = 2_000;

export function restoredContextTokens(history: readonly ChatMessage[], state: ContextState | undefined, systemPrompt = ''): number {
  if (history.length === 0) return 0;
  const view = new HistoryView(state);
  view.reconcile(history);
  const messages = view.build(systemMessage(systemPrompt), history, SUMMARY_TOKENS);
  return new TokenMeter().measure(messages, [], 1).raw;
}
