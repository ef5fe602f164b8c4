// Test doubles for running the chat panel in jsdom: a hand-cranked clock/frame scheduler, a recording
// stand-in for the VS Code webview API, and a mount helper.
import { JSDOM } from 'jsdom';
import { ChatApp } from '../../../webview-ui/app';
import type { VsCodeApi } from '../../../webview-ui/host';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../webview-ui/markdown';
import type { ViewTiming } from '../../../webview-ui/timing';

/** Frames and timers run only when the test says so; time moves only when the test moves it. */
export class ManualTiming implements ViewTiming {
  time = 0;
  private frames: Array<() => void> = [];
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextHandle = 1;

  constructor(private readonly clock?: () => number) {}

  now(): number {
    return this.clock ? this.clock() : this.time;
  }

  requestFrame(callback: () => void): void {
    this.frames.push(callback);
  }

  setTimer(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + ms, fn: callback });
    return handle;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingFrames(): number {
    return this.frames.length;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Run the frames requested so far (not ones requested while running). */
  frame(): void {
    const due = this.frames;
    this.frames = [];
    for (const f of due) f();
  }

  /** Move time forward, running timers as they fall due (in order). */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = Math.max(this.time, next[1].at);
      next[1].fn();
    }
    this.time = target;
  }

  /** One task's worth: the timers already due now, not the ones they schedule. */
  runDueTimers(): number {
    const due = [...this.timers.entries()].filter(([, t]) => t.at <= this.time).sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
    for (const [handle, t] of due) {
      this.timers.delete(handle);
      t.fn();
    }
    return due.length;
  }

  /** Frames and timers until both queues are empty. */
  settle(maxRounds = 100_000): void {
    for (let i = 0; i < maxRounds; i++) {
      if (this.frames.length === 0 && this.timers.size === 0) return;
      this.frame();
      this.advance(this.timers.size ? Math.max(0, Math.min(...[...this.timers.values()].map((t) => t.at)) - this.time) : 0);
    }
    throw new Error('timing did not settle');
  }
}

export class RecordingVsCodeApi implements VsCodeApi {
  readonly posted: Array<{ type: string } & Record<string, unknown>> = [];
  constructor(public state: unknown = undefined) {}

  postMessage(message: unknown): void {
    this.posted.push(message as { type: string } & Record<string, unknown>);
  }

  getState(): unknown {
    return this.state;
  }

  setState(state: unknown): void {
    this.state = state;
  }

  ofType(type: string): Array<Record<string, unknown>> {
    return this.posted.filter((m) => m.type === type);
  }
}

/** Counts markdown renders, to check that streaming re-renders are throttled. */
export class CountingMarkdown implements MarkdownRenderer {
  renders = 0;
  constructor(private readonly inner: MarkdownRenderer) {}

  render(markdown: string): DocumentFragment {
    this.renders++;
    return this.inner.render(markdown);
  }

  sanitize(html: string): DocumentFragment {
    return this.inner.sanitize(html);
  }

  toHtml(markdown: string): string {
    return this.inner.toHtml(markdown);
  }
}

export interface MountedApp {
  dom: JSDOM;
  doc: Document;
  app: ChatApp;
  api: RecordingVsCodeApi;
  timing: ManualTiming;
  markdown: CountingMarkdown;
  logs: string[];
  /** Deliver a host message and run the frame it schedules. */
  deliver(message: unknown): void;
  q<T extends Element = HTMLElement>(selector: string): T;
  qa(selector: string): Element[];
}

export function mountApp(options: { uiState?: unknown; clock?: () => number; autoStart?: boolean } = {}): MountedApp {
  const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
  const doc = dom.window.document;
  const api = new RecordingVsCodeApi(options.uiState);
  const timing = new ManualTiming(options.clock);
  const markdown = new CountingMarkdown(createMarkdownRenderer(dom.window));
  const logs: string[] = [];
  const app = new ChatApp({ doc, mount: doc.getElementById('root')!, api, markdown, timing, log: (l) => logs.push(l) });
  if (options.autoStart !== false) app.start();
  return {
    dom,
    doc,
    app,
    api,
    timing,
    markdown,
    logs,
    deliver(message) {
      app.receive(message);
      timing.frame();
    },
    q<T extends Element = HTMLElement>(selector: string): T {
      const el = doc.querySelector(selector);
      if (!el) throw new Error(`no element matches ${selector}`);
      return el as unknown as T;
    },
    qa: (selector) => Array.from(doc.querySelectorAll(selector)),
  };
}
