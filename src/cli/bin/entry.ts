// The `localharness` command: runs the CLI bundle (dist/cli-main.js) through V8's code cache, kept per user in the
// OS temp folder. DISABLE_V8_COMPILE_CACHE=1 turns it off.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runWithCodeCache } from '../codeCache';

const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
runWithCodeCache({
  file: path.join(__dirname, 'cli-main.js'),
  dir: process.env.DISABLE_V8_COMPILE_CACHE ? undefined : path.join(tmpdir(), `localharness-code-cache-${user}`),
});
