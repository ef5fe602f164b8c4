// The setup check's findings as a page: the overall verdict on top, one row per finding with its mark, what was
// found and the fix, links to check again. No scripts at all (CSP: nothing but the page's own styles); the links
// are command URIs the panel allows by name. Pure (unit-tested).
import { findingsOf, OVERALL_LABELS, type SetupReport, type Verdict } from '../../core/setupCheck/report';
import { VERDICT_WORDS } from '../../core/setupCheck/renderText';
import { serverLabel } from '../../core/setupCheck/serverCheck';
import { escapeHtml } from '../../shared/escape';

export interface SetupPageInput {
  report: SetupReport;
  /** What the check sent (from setupCheckPlan). */
  sent?: readonly string[];
  /** Base64 nonce for the page's style element. */
  nonce: string;
}

const MARKS: Record<Verdict, string> = { ok: '✓', info: 'i', limited: '!', failed: '✗', skipped: '–' };

export function setupReportHtml(input: SetupPageInput): string {
  const { report } = input;
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(input.nonce)) throw new Error('page nonce must be at least 16 base64 characters');
  const csp = `default-src 'none'; style-src 'nonce-${input.nonce}'; base-uri 'none'; form-action 'none'`;
  const server = report.server;
  const where = `${serverLabel(server.kind, report.provider)}${server.version ? ` ${server.version}` : ''} at ${report.baseUrl}`;
  const when = new Date(report.checkedAt).toISOString().replace('T', ' ').slice(0, 16);
  const again = `command:localharness.checkSetup?${encodeURIComponent(JSON.stringify([report.model]))}`;
  const rows = findingsOf(report)
    .map(({ id, title, finding }) => {
      const details = finding.details.filter((d) => d.trim()).map((d) => `<li>${inline(d)}</li>`).join('');
      return (
        `<tr class="finding verdict-${finding.verdict}" data-finding="${id}">` +
        `<td class="mark" title="${VERDICT_WORDS[finding.verdict]}"><span aria-label="${VERDICT_WORDS[finding.verdict]}">${MARKS[finding.verdict]}</span></td>` +
        `<th scope="row">${escapeHtml(title)}<div class="verdict">${VERDICT_WORDS[finding.verdict]}</div></th>` +
        `<td><p class="summary">${inline(finding.summary)}</p>${details ? `<ul class="details">${details}</ul>` : ''}` +
        `${finding.fix ? `<p class="fix"><strong>Fix:</strong> ${inline(finding.fix.replace(/^Fix: /, ''))}</p>` : ''}</td></tr>`
      );
    })
    .join('\n');
  const sent = input.sent?.length ? `<details><summary>What the check sent</summary><ul>${input.sent.map((l) => `<li>${inline(l)}</li>`).join('')}</ul></details>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${escapeHtml(input.nonce)}">${STYLE}</style>
<title>Model Setup</title>
</head>
<body>
<header class="overall overall-${report.overall.verdict}">
<h1>${escapeHtml(OVERALL_LABELS[report.overall.verdict])}</h1>
<p class="overall-summary">${inline(report.overall.summary)}</p>
<p class="meta">${escapeHtml(report.model || '(no model)')}${report.modelFromList ? ' (the first listed model)' : ''} · ${escapeHtml(where)} · checked ${escapeHtml(when)} UTC</p>
</header>
<table class="findings"><tbody>
${rows}
</tbody></table>
<footer>
<p><a href="${escapeHtml(again)}">Check again</a> · <a href="command:localharness.selectModel">Select Model</a> · <a href="command:localharness.openSettings">Open Settings</a></p>
<p class="meta">The result is kept for this server and model: a model that failed the tool probe starts with text-based tool calls, and a smaller window found is budgeted from the first request.</p>
${sent}
</footer>
</body>
</html>
`;
}

/** Escaped text with `code` spans. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 8px 20px 20px; max-width: 1100px; }
h1 { font-size: 1.6em; margin: 0.4em 0 0.2em; }
.overall { border-left: 4px solid var(--vscode-descriptionForeground); padding: 2px 12px; margin-bottom: 16px; }
.overall-ready { border-color: var(--vscode-testing-iconPassed, #388a34); }
.overall-limited { border-color: var(--vscode-editorWarning-foreground, #bf8803); }
.overall-unusable { border-color: var(--vscode-errorForeground, #e51400); }
.overall-summary { font-size: 1.1em; margin: 0.2em 0; }
.meta { color: var(--vscode-descriptionForeground); margin: 0.3em 0; }
table.findings { border-collapse: collapse; width: 100%; }
.findings tr { border-top: 1px solid var(--vscode-widget-border, rgba(128,128,128,0.35)); vertical-align: top; }
.findings th { text-align: left; white-space: nowrap; padding: 8px 16px 8px 4px; font-weight: 600; }
.findings td { padding: 8px 4px; }
.verdict { font-weight: normal; color: var(--vscode-descriptionForeground); font-size: 0.9em; }
td.mark { width: 1.6em; text-align: center; font-weight: bold; font-size: 1.2em; }
.verdict-ok .mark { color: var(--vscode-testing-iconPassed, #388a34); }
.verdict-info .mark, .verdict-skipped .mark { color: var(--vscode-descriptionForeground); }
.verdict-limited .mark { color: var(--vscode-editorWarning-foreground, #bf8803); }
.verdict-failed .mark { color: var(--vscode-errorForeground, #e51400); }
.summary { margin: 0 0 4px; }
.details { margin: 2px 0; padding-left: 18px; color: var(--vscode-descriptionForeground); }
.fix { margin: 6px 0 0; padding: 4px 8px; background: var(--vscode-textBlockQuote-background, rgba(128,128,128,0.1)); border-left: 3px solid var(--vscode-textLink-foreground); }
code { font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background, rgba(128,128,128,0.15)); padding: 0 3px; }
a { color: var(--vscode-textLink-foreground); }
footer { margin-top: 16px; }
`;
