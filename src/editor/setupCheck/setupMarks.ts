// The small mark a model gets in the model picker once it was checked, and its tooltip. Pure (unit-tested).
import { OVERALL_LABELS, type SetupReport } from '../../core/setupCheck/report';
import { relativeTime } from '../../shared/relativeTime';

export interface SetupMark {
  /** A codicon name. */
  icon: 'pass' | 'warning' | 'error' | 'checklist';
  /** A few words after the icon ('' when the model was never checked). */
  text: string;
  tooltip: string;
}

const ICONS = { ready: 'pass', limited: 'warning', unusable: 'error' } as const;

export function setupMark(report: SetupReport | undefined, now: number): SetupMark {
  if (!report) return { icon: 'checklist', text: '', tooltip: 'Not checked yet: check this model\u2019s setup (sends a handful of short requests; asks first)' };
  const verdict = report.overall.verdict;
  return {
    icon: ICONS[verdict],
    text: OVERALL_LABELS[verdict].toLowerCase(),
    tooltip: `Setup check ${relativeTime(report.checkedAt, now)}: ${report.overall.summary} Click for the findings.`,
  };
}
