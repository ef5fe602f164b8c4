// Keeps the controls in step with the state: busy (Send/Stop), the context meter, the status line,
// and the model picker filled from the host.
import type { ChatViewState, ModelCheck } from '../src/shared/protocol';
import { rereadText } from '../src/shared/promptCacheText';
import { setAttr, setHidden, setText } from './dom';
import type { Layout } from './layout';

const numberFormat = new Intl.NumberFormat('en-US');

export function updateControls(layout: Layout, state: ChatViewState, hasDraft: boolean): void {
  layout.send.disabled = state.busy || !hasDraft;
  layout.stop.disabled = !state.busy;
  setAttr(layout.conversation, 'aria-busy', state.busy ? 'true' : null);
  setAttr(layout.root, 'data-busy', state.busy ? 'true' : null);

  const { used, available } = state.context;
  const text = contextText(used, available);
  setText(layout.contextText, text);
  setAttr(layout.contextMeter, 'aria-valuetext', text);
  layout.contextMeter.title = [`Context: ${text}`, ...cacheLines(state.context.cache)].join('\n');
  const max = available && available > 0 ? available : 1;
  if (layout.contextMeter.max !== max) layout.contextMeter.max = max;
  const value = available && available > 0 ? Math.min(used, available) : 0;
  if (layout.contextMeter.value !== value) layout.contextMeter.value = value;
  // low/high mark the 70% (compression) and 90% zones; style.css colours them from the theme.
  layout.contextMeter.low = max * 0.7;
  layout.contextMeter.high = max * 0.9;
  layout.contextMeter.optimum = 0;

  const status = state.status ?? (state.busy ? 'Working…' : '');
  setText(layout.status, status);
  setHidden(layout.status, status === '');
}

/** The tooltip's word on the server's prompt cache: what the last request and this turn made it read again. */
export function cacheLines(cache: ChatViewState['context']['cache']): string[] {
  if (!cache) return [];
  return [
    ['Last request', rereadText(cache.last)],
    ['This turn', rereadText(cache.turn)],
  ].flatMap(([label, text]) => (text ? [`${label}: ${text}`] : []));
}

export function contextText(used: number, available: number | null): string {
  if (available && available > 0) return `${numberFormat.format(used)} / ${numberFormat.format(available)} tokens`;
  return `${numberFormat.format(used)} tokens used`;
}

const CHECK_MARKS: Record<ModelCheck['verdict'], string> = { ready: '✓', limited: '⚠', unusable: '✗' };

export function updateModels(layout: Layout, doc: Document, models: readonly string[], selected: string | null, error?: string, checks: readonly ModelCheck[] = []): void {
  const picker = layout.modelPicker;
  const options: HTMLOptionElement[] = [];
  if (selected === null) options.push(option(doc, '', models.length ? 'Choose a model…' : 'No models found', true));
  for (const name of models) {
    // The setup check's verdict: a mark after the name, its summary as the tooltip.
    const check = checks.find((c) => c.model === name);
    const o = option(doc, name, check ? `${name} ${CHECK_MARKS[check.verdict]}` : name, false);
    if (check) o.title = `Setup check: ${check.summary}`;
    options.push(o);
  }
  if (selected !== null && !models.includes(selected)) {
    // Keep showing the configured model even when the server does not list it (offline, not pulled).
    options.unshift(option(doc, selected, `${selected} (not on the server)`, false));
  }
  picker.replaceChildren(...options);
  picker.value = selected ?? '';
  picker.title = options.find((o) => o.value === picker.value && o.title)?.title ?? '';
  setText(layout.modelError, error ?? '');
  setHidden(layout.modelError, !error);
}

function option(doc: Document, value: string, label: string, disabled: boolean): HTMLOptionElement {
  const o = doc.createElement('option');
  o.value = value;
  o.textContent = label;
  o.disabled = disabled;
  return o;
}
