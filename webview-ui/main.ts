// Webview entry (bundled to dist/webview.js): mounts the chat panel and connects it to the host.
import { ChatApp } from './app';
import type { VsCodeApi } from './host';
import { createMarkdownRenderer } from './markdown';
import { browserTiming } from './timing';

declare function acquireVsCodeApi(): VsCodeApi;

const mount = document.getElementById('root') ?? document.body;
const app = new ChatApp({
  doc: document,
  mount,
  api: acquireVsCodeApi(),
  markdown: createMarkdownRenderer(window),
  timing: browserTiming(window),
});
window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
app.start();
