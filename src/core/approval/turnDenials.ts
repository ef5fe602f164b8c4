// Deny means deny for the rest of the turn: an identical call, or any call writing a file whose write was
// denied, is refused without a new dialog (dialog after dialog trains people to click Allow).
import { canonicalJson } from '../workspace/sensitivePaths';
import type { WriteTarget } from './writeTargets';

export interface Refusal {
  /** For the approval_result event. */
  reason: string;
  /** What the model reads. */
  message: string;
}

/** One per turn: the turn runner makes a fresh one when a turn begins. */
export class TurnDenials {
  private readonly calls = new Set<string>();
  /** Denied write targets: key → how the file is shown. */
  private readonly targets = new Map<string, string>();
  private told = false;

  record(toolName: string, args: unknown, targets: readonly WriteTarget[]): void {
    this.calls.add(callKey(toolName, args));
    for (const t of targets) this.targets.set(t.key, t.display);
  }

  /** A refusal when this call repeats a denied one or writes a denied file; undefined otherwise. */
  refusal(toolName: string, args: unknown, targets: readonly WriteTarget[]): Refusal | undefined {
    let long: string;
    let reason: string;
    if (this.calls.has(callKey(toolName, args))) {
      reason = 'this exact call was denied earlier in this turn';
      long = 'Refused without asking: this exact call was denied earlier in this turn; do not repeat it. Do something else, or ask the user (ask_question).';
    } else {
      const hit = targets.find((t) => this.targets.has(t.key));
      if (!hit) return undefined;
      const shown = this.targets.get(hit.key)!;
      reason = `writing ${shown} was denied earlier in this turn`;
      long = `Refused without asking: writing ${shown} was denied earlier in this turn, and this call writes it too; do not try again through another tool. Do something else, or ask the user (ask_question).`;
    }
    // The full explanation once per turn; after that a short line, so repeats do not fill a small window.
    const message = this.told ? `Refused again: ${reason}.` : long;
    this.told = true;
    return { reason, message };
  }
}

function callKey(toolName: string, args: unknown): string {
  return `${toolName}\0${canonicalJson(args)}`;
}
