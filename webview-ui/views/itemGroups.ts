// Item elements live in fixed-size groups (items [g*size, (g+1)*size) in group g). The groups, not the items,
// carry `content-visibility: auto`: Chromium checks every such element against the viewport on each frame
// (an intersection observer per element), so with one per item a frame cost grew with the conversation
// (a browser trace at 2,000 messages showed it as the largest main-thread cost). Off-screen groups still skip
// style, layout and paint, and every item stays in the DOM (find in page, screen readers, tests).
import { h } from '../dom';

export const GROUP_SIZE = 50;

/** Splits the item range [start, end) at group boundaries: one [group, from, to) per group touched, in order. */
export function groupRanges(start: number, end: number, size = GROUP_SIZE): Array<{ group: number; from: number; to: number }> {
  const out: Array<{ group: number; from: number; to: number }> = [];
  for (let from = start; from < end; ) {
    const group = Math.floor(from / size);
    const to = Math.min(end, (group + 1) * size);
    out.push({ group, from, to });
    from = to;
  }
  return out;
}

export class ItemGroups {
  private groups = new Map<number, HTMLElement>();
  /** Lowest group index in the DOM (groups are contiguous up to the newest). */
  private first = Infinity;

  constructor(
    private readonly doc: Document,
    private readonly list: HTMLElement,
    private readonly size = GROUP_SIZE,
  ) {}

  clear(): void {
    this.groups.clear();
    this.first = Infinity;
    this.list.replaceChildren();
  }

  /** Adds the element of item `index` after every item already shown (a new item at the end). */
  append(index: number, el: HTMLElement): void {
    this.group(Math.floor(index / this.size)).append(el);
  }

  /** Adds the elements of items [start, start + els.length), all older than every item already shown. */
  prepend(start: number, els: readonly HTMLElement[]): void {
    for (const r of groupRanges(start, start + els.length, this.size).reverse()) {
      const fragment = this.doc.createDocumentFragment();
      for (let i = r.from; i < r.to; i++) fragment.append(els[i - start]!);
      const group = this.group(r.group);
      group.insertBefore(fragment, group.firstChild);
    }
  }

  private group(g: number): HTMLElement {
    let el = this.groups.get(g);
    if (el) return el;
    el = h(this.doc, 'div', 'item-group');
    this.groups.set(g, el);
    if (g < this.first) {
      // Older than every group shown: goes first (older items are only ever added above, newer below).
      this.list.insertBefore(el, this.list.firstChild);
      this.first = g;
    } else {
      this.list.append(el);
    }
    return el;
  }
}
