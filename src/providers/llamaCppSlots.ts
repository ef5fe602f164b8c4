// Which llama-server slot a request goes to (`id_slot`). With two or more slots (`-np 2`, `/props` total_slots) the
// chat keeps slot 0 and side work takes the last one, so neither evicts the other's cached prompt
// (src/core/cacheSlot.ts says why). With one slot, an unmarked request, or a server not seen to be llama.cpp nothing
// is sent: other servers reject or ignore fields they do not know, and an id the server does not have would make an
// older llama-server wait for a slot that never frees.
import type { CacheSlot } from '../core/provider';
import type { LlamaCppProps } from './openaiModelInfo';

export class LlamaCppSlots {
  private total: number | undefined;
  private asked: Promise<void> | undefined;

  /** What `/props` said: its slot count, or undefined for a server that is not llama.cpp. */
  note(props: LlamaCppProps | undefined): void {
    this.total = props?.slots;
    this.asked ??= Promise.resolve();
  }

  /** Asks `/props` once when nothing has said yet (a side request can come before the chat's first model lookup). */
  known(ask: () => Promise<LlamaCppProps | undefined>): Promise<void> {
    // A failed lookup leaves the request unpinned: the server chooses, as it did before slots were known.
    this.asked ??= ask().then((props) => this.note(props), () => undefined);
    return this.asked;
  }

  /** The `id_slot` for a request marked `slot`, or undefined when it must not carry one. */
  idFor(slot: CacheSlot | undefined): number | undefined {
    if (slot === undefined || this.total === undefined || this.total < 2) return undefined;
    return slot === 'chat' ? 0 : this.total - 1;
  }
}
