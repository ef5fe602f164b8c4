// A node:test reporter that writes one JSON object, {"<test file>": seconds}, paths relative to the working
// folder: how long each test file took. scripts/run-tests.mjs reads it to name the slowest files and to refresh
// scripts/test-durations.json (the order files are started in).
import { relative } from 'node:path';

const TEST_FILE = /\.test\.ts$/;

export default async function* fileTimes(source) {
  const seconds = {};
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { nesting, name, file, details } = event.data;
    // Both at nesting 0: a file run in its own process is reported as a test named by its path (its start-up
    // included); a file in a generated group entry is a suite named by its relative path (its tests only).
    if (nesting !== 0 || file === undefined || !TEST_FILE.test(name)) continue;
    const own = name === file;
    const grouped = !TEST_FILE.test(file);
    if (own || grouped) seconds[relative(process.cwd(), name)] = Math.round(details.duration_ms) / 1000;
  }
  yield `${JSON.stringify(seconds, null, 1)}\n`;
}
