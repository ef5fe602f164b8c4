// A node:test reporter that writes one JSON object: {"files": {"<test file>": seconds}, "summary": {"pass": n, …}},
// paths relative to the working folder. scripts/run-tests.mjs reads it for the closing counts, to name the slowest
// files and to refresh scripts/test-durations.json (the order files are started in).
import { relative } from 'node:path';

const TEST_FILE = /\.test\.ts$/;

export default async function* fileTimes(source) {
  const files = {};
  const summary = {};
  for await (const event of source) {
    const { nesting, name, file, details, message } = event.data ?? {};
    // The run's closing counts ("pass 12", "fail 0", …) are diagnostics of the root.
    if (event.type === 'test:diagnostic' && nesting === 0 && file === undefined) {
      const m = /^(\w+) ([\d.]+)$/.exec(message);
      if (m) summary[m[1]] = Number(m[2]);
    }
    if (event.type !== 'test:complete' || nesting !== 0 || file === undefined || !TEST_FILE.test(name)) continue;
    // A file run in its own process is reported as a test named by its path (its start-up included); a file in
    // a generated group entry is a suite named by its relative path (its tests only).
    if (name === file || !TEST_FILE.test(file)) files[relative(process.cwd(), name)] = Math.round(details.duration_ms) / 1000;
  }
  yield `${JSON.stringify({ files, summary }, null, 1)}\n`;
}
