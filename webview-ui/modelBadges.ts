// The badges beside the model picker, as VS Code's own chat shows a model's traits: the window ("32K"), an eye when
// the model sees images and a wrench when it calls tools (the tooltip says each in words).
import type { SelectedModelInfo } from '../src/shared/imageUpload';
import type { Layout } from './layout';
import { h } from './dom';

export function updateModelBadges(layout: Layout, doc: Document, info: SelectedModelInfo | undefined): void {
  const el = layout.modelBadges;
  if (!info) {
    el.replaceChildren();
    el.hidden = true;
    return;
  }
  const badges: HTMLElement[] = [];
  const words: string[] = [];
  if (info.window) {
    badges.push(h(doc, 'span', 'model-badge model-window', windowText(info.window)));
    words.push(`${info.window.toLocaleString('en-US')}-token window`);
  }
  if (info.vision) {
    badges.push(icon(doc, 'eye', 'model-vision'));
    words.push('sees images');
  }
  if (info.tools) {
    badges.push(icon(doc, 'tools', 'model-tools'));
    words.push('calls tools');
  }
  el.replaceChildren(...badges);
  el.title = words.join(', ');
  el.setAttribute('aria-label', `Model: ${words.join(', ') || 'no details'}`);
  el.hidden = badges.length === 0;
}

/** 32768 → "32K", 131072 → "128K", 1000 → "1000". */
export function windowText(tokens: number): string {
  return tokens >= 1024 && tokens % 1024 === 0 ? `${tokens / 1024}K` : tokens >= 10_000 ? `${Math.round(tokens / 1000)}K` : String(tokens);
}

function icon(doc: Document, name: string, className: string): HTMLElement {
  const span = h(doc, 'span', `model-badge ${className} codicon codicon-${name}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}
