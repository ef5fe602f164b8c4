// The `localharness` command. The CLI is run as many short processes (scripts, agents, tests), and compiling its
// bundle is a real part of each one's start and first rounds: V8's code cache (kept in the OS temp folder, keyed by
// the V8 version) skips that after the first run. DISABLE_V8_COMPILE_CACHE=1 turns it off.
import 'v8-compile-cache';

// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./cli-main.js');
