// The report as plain text: one block per finding with its verdict, what was found and the fix; a server that
// does not answer, or lacks the model, is one line.
import { findingsOf, type SetupReport, type Verdict } from './report';

export const VERDICT_WORDS: Record<Verdict, string> = {
  ok: 'ok',
  info: 'note',
  limited: 'limited',
  failed: 'failed',
  skipped: 'skipped',
};

export function renderSetupReport(report: SetupReport): string {
  if (!report.server.reachable || report.server.modelListed === false || report.server.verdict === 'failed') return `${oneLine(report.overall.summary)}\n`;
  const width = Math.max(...findingsOf(report).map((f) => f.title.length)) + 2;
  const tag = (v: Verdict) => `[${VERDICT_WORDS[v]}]`.padEnd(10);
  const indent = ' '.repeat(10 + width);
  const out = [`Setup check of ${report.model} at ${report.baseUrl} (${new Date(report.checkedAt).toISOString().replace('T', ' ').slice(0, 16)} UTC)`, ''];
  for (const { title, finding } of findingsOf(report)) {
    out.push(`${tag(finding.verdict)}${title.padEnd(width)}${oneLine(finding.summary)}`);
    for (const d of finding.details) if (d.trim()) out.push(`${indent}${oneLine(d)}`);
    if (finding.fix) out.push(`${indent}Fix: ${oneLine(finding.fix.replace(/^Fix: /, ''))}`);
  }
  out.push('', oneLine(report.overall.summary));
  return out.join('\n') + '\n';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
