// Measuring the chat webview in the real editor over CDP: its heap, and (when a folder is given) a CPU profile and
// a timeline trace of one step, saved there and summarised as the hottest functions and the kinds of main-thread work.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Frame } from 'playwright-core';
import type { E2ESession } from '../../test/helpers/e2e/session';

/** A CDP session for the webview: its own target when Chromium runs it out of process, else the page's. */
export async function webviewCdp(session: E2ESession, frame: Frame): Promise<{ cdp: CDPSession; scope: string }> {
  const context = session.workbench.page.context();
  try {
    return { cdp: await context.newCDPSession(frame), scope: 'webview process' };
  } catch {
    return { cdp: await context.newCDPSession(session.workbench.page), scope: 'renderer shared with the workbench' };
  }
}

export async function heapUsed(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usage.usedSize;
}

/**
 * With a folder `dir`: a JS CPU profile and a Chromium timeline trace of `fn`. The trace says where the
 * time went outside script (style, layout, paint), which the CPU profile only shows as "(program)".
 */
export async function profileWebview<T>(dir: string | undefined, cdp: CDPSession, name: string, fn: () => Promise<T>): Promise<T> {
  if (!dir) return fn();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const events: TraceEvent[] = [];
  const collect = (e: { value: Array<Record<string, unknown>> }) => void events.push(...(e.value as unknown as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
  const result = await fn();
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await traced;
  cdp.off('Tracing.dataCollected', collect);
  const { profile: p } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(p));
  writeFileSync(path.join(dir, `${name}.trace.json`), JSON.stringify({ traceEvents: events }));
  console.log(`\nCPU profile ${file} — hottest functions (self time):`);
  for (const line of hottest(p, 12)) console.log(`  ${line}`);
  console.log(`timeline (${name}.trace.json) — main-thread work by kind (nested kinds overlap):`);
  for (const line of timelineSummary(events, 12)) console.log(`  ${line}`);
  return result;
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  args?: { beginData?: { frame?: string; url?: string }; data?: { frame?: string; url?: string } };
}

function timelineSummary(events: TraceEvent[], top: number): string[] {
  const byName = new Map<string, { us: number; n: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const entry = byName.get(e.name) ?? { us: 0, n: 0 };
    entry.us += e.dur;
    entry.n++;
    byName.set(e.name, entry);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([k, v]) => `${(v.us / 1000).toFixed(1).padStart(8)} ms ${String(v.n).padStart(6)}×  ${k}`);
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

function hottest(p: CpuProfile, top: number): string[] {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of p.nodes) {
    const t = self.get(node.id) ?? 0;
    if (t === 0) continue;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url) || ''}:${f.lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + t);
  }
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, t]) => `${(t / 1000).toFixed(1).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
}
