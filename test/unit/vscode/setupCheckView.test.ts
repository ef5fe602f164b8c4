// The editor's view of a setup check: the page (no scripts, escaped, a row per finding, links to check again)
// and the model picker's mark and tooltip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { setupReportHtml } from '../../../src/editor/setupCheck/setupReportHtml';
import { setupMark } from '../../../src/editor/setupCheck/setupMarks';
import { sampleReport } from '../setupCheck/sampleReport';

const NONCE = 'AAAAAAAAAAAAAAAAAAAAAAAA';

test('the page: verdict on top, one row per finding with its mark and fix, no script anywhere', () => {
  const report = sampleReport();
  report.tools.summary = '<img src=x onerror=alert(1)> calls tools';
  const html = setupReportHtml({ report, nonce: NONCE, sent: ['the model list'] });
  const doc = new JSDOM(html).window.document;
  const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /script-src/);
  assert.equal(doc.querySelectorAll('script, img, iframe').length, 0, 'model-controlled text is escaped');
  assert.equal(doc.querySelector('h1')!.textContent, 'Usable with limits');
  const rows = [...doc.querySelectorAll('tr.finding')];
  assert.deepEqual(rows.map((r) => r.getAttribute('data-finding')), ['server', 'window', 'tools', 'speed', 'cache', 'embedding']);
  const window = rows[1]!;
  assert.ok(window.classList.contains('verdict-limited'));
  assert.equal(window.querySelector('th')!.textContent, 'Context windowlimited');
  assert.match(window.querySelector('.fix')!.textContent!, /^Fix: make Ollama run/);
  assert.equal(window.querySelector('.fix code')!.textContent, 'OLLAMA_CONTEXT_LENGTH=16384');
  assert.match(rows[2]!.querySelector('.summary')!.textContent!, /^<img src=x/);
  const again = [...doc.querySelectorAll('a')].find((a) => a.textContent === 'Check again')!;
  assert.equal(again.getAttribute('href'), `command:localharness.checkSetup?${encodeURIComponent('["qwen3:8b"]')}`);
  assert.throws(() => setupReportHtml({ report, nonce: 'short' }), /nonce/);
});

test('the picker mark: the verdict in a few words, the summary and the age in the tooltip', () => {
  const report = sampleReport();
  const mark = setupMark(report, report.checkedAt + 3 * 3_600_000);
  assert.deepEqual([mark.icon, mark.text], ['warning', 'usable with limits']);
  assert.match(mark.tooltip, /^Setup check 3 h ago: Usable with limits: the server runs 4,096 tokens, not 16,384\. Click for the findings\.$/);
  report.overall.verdict = 'ready';
  assert.equal(setupMark(report, report.checkedAt).icon, 'pass');
  report.overall.verdict = 'unusable';
  assert.deepEqual([setupMark(report, report.checkedAt).icon, setupMark(report, report.checkedAt).text], ['error', 'not usable']);
  const none = setupMark(undefined, 0);
  assert.deepEqual([none.icon, none.text], ['checklist', '']);
  assert.match(none.tooltip, /Not checked yet/);
});
