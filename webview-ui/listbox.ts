// The suggestion list under the Message box (slash commands, @ mentions): shows options as an ARIA listbox the
// textarea points into with aria-activedescendant, and hides it again.

/** Shows `options` (already built, ids `${listId}-${i}`) with `active` as the one the input points at. */
export function showListbox(el: HTMLElement, input: HTMLElement, listId: string, options: readonly HTMLElement[], active: number): void {
  el.replaceChildren(...options);
  el.hidden = false;
  input.setAttribute('aria-activedescendant', `${listId}-${active}`);
  options[active]?.scrollIntoView?.({ block: 'nearest' });
}

/** Empties and hides the list; false when it was hidden already. */
export function hideListbox(el: HTMLElement, input: HTMLElement): boolean {
  if (el.hidden) return false;
  el.hidden = true;
  el.replaceChildren();
  input.removeAttribute('aria-activedescendant');
  return true;
}
