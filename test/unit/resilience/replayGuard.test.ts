import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayGuard } from '../../../src/core/resilience/replayGuard';

class Screen {
  shown = '';
  restarts = 0;
  readonly guard = new ReplayGuard(
    (t) => (this.shown += t),
    () => {
      this.restarts++;
      this.shown += '|RESTART|';
    },
  );
}

test('the first attempt streams straight through', () => {
  const s = new Screen();
  s.guard.beginAttempt();
  for (const c of ['Hel', 'lo ', 'world']) s.guard.push(c);
  s.guard.finish();
  assert.equal(s.shown, 'Hello world');
  assert.equal(s.restarts, 0);
});

test('a retry that repeats the cut-off text shows only what is new', () => {
  const s = new Screen();
  s.guard.beginAttempt();
  s.guard.push('I will read ');
  s.guard.push('the fi'); // stream breaks here
  s.guard.beginAttempt();
  for (const c of ['I will ', 'read the', ' file now.']) s.guard.push(c);
  s.guard.finish();
  assert.equal(s.shown, 'I will read the file now.');
  assert.equal(s.restarts, 0);
});

test('a retry that says something else is announced and shown from its start', () => {
  const s = new Screen();
  s.guard.beginAttempt();
  s.guard.push('First I will');
  s.guard.beginAttempt();
  s.guard.push('First I ');
  s.guard.push('need the file.');
  s.guard.finish();
  assert.equal(s.shown, 'First I will|RESTART|First I need the file.');
  assert.equal(s.restarts, 1);
});

test('a retry shorter than the cut-off text is announced at the end', () => {
  const s = new Screen();
  s.guard.beginAttempt();
  s.guard.push('Done. Also');
  s.guard.beginAttempt();
  s.guard.push('Done.');
  s.guard.finish();
  assert.equal(s.shown, 'Done. Also|RESTART|Done.');
});

test('a retry identical to the cut-off text shows nothing more', () => {
  const s = new Screen();
  s.guard.beginAttempt();
  s.guard.push('Same text');
  s.guard.beginAttempt();
  s.guard.push('Same text');
  s.guard.finish();
  assert.equal(s.shown, 'Same text');
  assert.equal(s.restarts, 0);
});
