import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Logger, Redactor, shorten, type LogSink } from '../../../src/editor/log/logger';
import { describeEventForLog } from '../../../src/editor/log/eventLog';
import { RecordingLogSink } from '../../helpers/recordingLogSink';

test('known secrets and credential-shaped text never reach the sink', () => {
  const sink = new RecordingLogSink();
  const redactor = new Redactor();
  redactor.addSecret('hunter2-very-secret');
  const log = new Logger(sink, redactor);
  log.info('key is hunter2-very-secret, again hunter2-very-secret');
  log.warn('Authorization: Bearer abcdefghijklmnop');
  log.error('request to http://alice:pa55word@example.com/v1 failed');
  log.info('{"api_key": "zzz-123", "model": "qwen3"}');
  log.info('using sk-proj-ABCDEFGHIJKLMNOP now');
  const all = sink.lines.join('\n');
  for (const secret of ['hunter2-very-secret', 'abcdefghijklmnop', 'pa55word', 'zzz-123', 'sk-proj-ABCDEFGHIJKLMNOP']) {
    assert.ok(!all.includes(secret), `${secret} leaked: ${all}`);
  }
  assert.match(all, /"model": "qwen3"/, 'ordinary text stays');
  assert.match(all, /^warn Authorization: Bearer \[redacted\]$/m);
});

test('ordinary log lines about tokens and models are left alone', () => {
  const redactor = new Redactor();
  const line = 'request #1 → ollama http://127.0.0.1:11434 model=qwen3 messages=3 tools=11 ~1200 tokens context=8192';
  assert.equal(redactor.redact(line), line);
});

test('long lines are shortened and a throwing sink is survived', () => {
  assert.equal(shorten('abcdef', 3), 'abc… (3 more characters)');
  const broken: LogSink = {
    trace: () => {
      throw new Error('disposed');
    },
    debug: () => {
      throw new Error('disposed');
    },
    info: () => {
      throw new Error('disposed');
    },
    warn: () => {
      throw new Error('disposed');
    },
    error: () => {
      throw new Error('disposed');
    },
  };
  assert.doesNotThrow(() => new Logger(broken).error('x', new Error('y')));
});

test('agent events become one readable line each; streamed text is not logged', () => {
  assert.equal(describeEventForLog({ type: 'text', text: 'hello' }), undefined);
  assert.equal(describeEventForLog({ type: 'thinking', text: 'hmm' }), undefined);
  assert.deepEqual(describeEventForLog({ type: 'tool_call', id: 'c1', name: 'run_command', arguments: { command: 'npm test' } }), {
    level: 'info',
    message: 'tool call run_command {"command":"npm test"}',
  });
  assert.deepEqual(describeEventForLog({ type: 'approval_result', id: 'c1', name: 'run_command', approved: false, reason: 'denied by the user' }), {
    level: 'warn',
    message: 'approval denied for run_command: denied by the user',
  });
  const failed = describeEventForLog({ type: 'tool_result', id: 'c1', name: 'edit_file', ok: false, content: 'Error: no match\n'.repeat(100), durationMs: 12 });
  assert.equal(failed?.level, 'warn');
  assert.match(failed!.message, /^tool edit_file failed in 12 ms \(1600 characters\): Error: no match Error/);
  assert.ok(failed!.message.length < 400);
  assert.deepEqual(describeEventForLog({ type: 'error', message: 'boom' }), { level: 'error', message: 'boom' });
  assert.equal(describeEventForLog({ type: 'turn_end', reason: 'cancelled' })?.message, 'turn ended: cancelled');
  assert.deepEqual(
    describeEventForLog({ type: 'compression', method: 'llm', reason: 'threshold', tokensBefore: 6000, tokensAfter: 2500, messagesAffected: 12, window: 8192, targetMet: true, modelCalls: 3, budget: { used: 3, limit: 6 } }),
    { level: 'info', message: 'compressed the conversation (llm, threshold): 6000 → 2500 tokens, 12 messages' },
  );
  assert.equal(describeEventForLog({ type: 'context', used: 100, window: 8192 })?.level, 'debug');
});
