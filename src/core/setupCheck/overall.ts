// One verdict for the whole setup: ready, usable with limits (which), or not usable (why).
import { formatCount } from '../../shared/format';
import type { SetupReport } from './report';
import { serverLabel } from './serverCheck';

type Findings = Omit<SetupReport, 'overall' | 'version' | 'checkedAt' | 'provider' | 'baseUrl' | 'model' | 'modelFromList'>;

export function overallVerdict(f: Findings, model: string, providerId: SetupReport['provider']): SetupReport['overall'] {
  if (f.server.verdict === 'failed') {
    const line = `${f.server.summary}${f.server.fix ? ` ${f.server.fix}` : ''}`;
    return { verdict: 'unusable', summary: `Not usable: ${line}`, reasons: [f.server.summary] };
  }
  const all = [f.server, f.window, f.tools, f.speed, f.cache, f.embedding];
  const failed = all.filter((x) => x.verdict === 'failed').map((x) => x.reason ?? x.summary);
  if (failed.length) return { verdict: 'unusable', summary: `Not usable: ${failed.join('; ')}.`, reasons: failed };
  const limited = all.filter((x) => x.verdict === 'limited').map((x) => x.reason ?? x.summary);
  if (limited.length) return { verdict: 'limited', summary: `Usable with limits: ${limited.join('; ')}.`, reasons: limited };
  const where = serverLabel(f.server.kind, providerId);
  const parts = [`${model} on ${where}`];
  parts.push(f.tools.protocol === 'xml' ? 'calls tools as text' : 'calls tools natively');
  if (f.window.budget) parts.push(`has ${formatCount(f.window.budget)} tokens of context`);
  if (f.cache.state === 'works') parts.push('reuses its prompt cache');
  return { verdict: 'ready', summary: `Ready: ${parts[0]} ${parts.slice(1).join(', ')}.`, reasons: [] };
}
