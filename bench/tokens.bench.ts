// Token estimate bench: how far the estimator (src/core/tokens.ts) is from "server-reported" prompt counts,
// before and after per-model calibration, on a mixed prose/code/JSON corpus.
// Run: node --import tsx bench/tokens.bench.ts
//
// Honest caveat: no real tokenizer ships with this repo, so the "server" counts come from a documented proxy
// (test/unit/context/referenceTokenizer.ts): a GPT-style pre-split with BPE-like piece costs, in two profiles,
// a large vocabulary (cl100k/Qwen-like) and a small one (Llama-2/Mistral-like). The numbers show how well
// calibration removes a tokenizer's systematic bias; they are not a measurement of any particular model.
import { TokenCalibration } from '../src/core/window/calibration';
import { TokenMeter } from '../src/core/window/meter';
import { estimateTokens } from '../src/core/tokens';
import { doc, mixedRequests, seeded, type DocKind } from '../test/helpers/tokens/mixedCorpus';
import { referencePromptTokens, referenceTokens, type Vocabulary } from '../test/helpers/tokens/referenceTokenizer';

const REQUESTS = 120;
const WARMUP = 10;

function pct(n: number): string {
  return `${(n * 100).toFixed(1)}%`;
}

function perKind(vocab: Vocabulary): string {
  const rand = seeded(5);
  const cells: string[] = [];
  for (const kind of ['prose', 'code', 'json'] as DocKind[]) {
    let est = 0;
    let ref = 0;
    for (let i = 0; i < 40; i++) {
      const d = doc(rand, kind);
      est += estimateTokens(d);
      ref += referenceTokens(d, vocab);
    }
    cells.push(`${kind} ${ref > est ? '+' : ''}${pct(ref / est - 1)}`);
  }
  return cells.join(', ');
}

function run(vocab: Vocabulary, alpha: number): void {
  const meter = new TokenMeter();
  const calibration = new TokenCalibration({ key: 'bench', alpha });
  const requests = mixedRequests(31337, REQUESTS);
  const raw: number[] = [];
  const cal: number[] = [];
  for (const r of requests) {
    const truth = referencePromptTokens(r, [], vocab);
    const m = meter.measure(r, [], calibration.factor);
    raw.push(Math.abs(m.raw - truth) / truth);
    cal.push(Math.abs(m.total - truth) / truth);
    calibration.observe(m.raw, truth); // the server's count arrives after the call
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const max = (xs: number[]) => Math.max(...xs);
  const afterRaw = raw.slice(WARMUP);
  const afterCal = cal.slice(WARMUP);
  console.log(
    `| ${vocab} | ${alpha} | ${pct(mean(afterRaw))} | ${pct(max(afterRaw))} | ${pct(mean(afterCal))} | ${pct(max(afterCal))} | ${calibration.factor.toFixed(3)} |`,
  );
}

console.log(`# Token estimate vs "server" counts (${REQUESTS} requests of a growing mixed session; errors after the first ${WARMUP})`);
console.log(`Estimator bias per content kind (proxy count vs estimate): large vocabulary: ${perKind('large')}; small vocabulary: ${perKind('small')}`);
console.log('\n| vocabulary | alpha | mean error uncalibrated | max uncalibrated | mean error calibrated | max calibrated | learned factor |');
console.log('|---|---|---|---|---|---|---|');
for (const vocab of ['large', 'small'] as const) for (const alpha of [0.1, 0.3]) run(vocab, alpha);
