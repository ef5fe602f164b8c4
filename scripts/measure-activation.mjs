// Measures what activating the extension costs: the size of dist/extension.js, the time to require it and the
// time activate() takes. A stand-in `vscode` module (a proxy where every member is a no-op) replaces the real API;
// it exists only to time loading and wiring, not to test behaviour (the e2e suite runs the real editor).
// Usage: node scripts/measure-activation.mjs [path/to/extension.js] [--runs N]
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1]) || 1) : 7;
const bundle = path.resolve(args.find((a, i) => !a.startsWith('--') && (runsAt < 0 || i !== runsAt + 1)) ?? 'dist/extension.js');

function main() {
  if (process.env.LOCALHARNESS_MEASURE_CHILD === '1') return measureOnce(bundle);
  let size;
  try {
    size = statSync(bundle).size;
  } catch {
    console.error(`${bundle} does not exist; run \`node esbuild.mjs\` first.`);
    process.exit(1);
  }
  const gz = gzipSync(readFileSync(bundle)).length;
  const samples = [];
  for (let i = 0; i < runs; i++) {
    // A fresh process per run: require() is cached, and the first load is what users pay for.
    const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), bundle], {
      env: { ...process.env, LOCALHARNESS_MEASURE_CHILD: '1' },
      encoding: 'utf8',
    });
    if (res.status !== 0) {
      console.error(res.stdout, res.stderr);
      process.exit(1);
    }
    samples.push(JSON.parse(res.stdout.trim().split('\n').pop()));
  }
  const median = (key) => {
    const values = samples.map((s) => s[key]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  console.log(`bundle: ${path.relative(process.cwd(), bundle)} ${(size / 1024).toFixed(0)} KiB (${(gz / 1024).toFixed(0)} KiB gzipped)`);
  console.log(`require: ${median('requireMs').toFixed(1)} ms, activate(): ${median('activateMs').toFixed(1)} ms, total: ${median('totalMs').toFixed(1)} ms (median of ${runs} runs, node ${process.versions.node})`);
  console.log(`registered: ${samples[0].commands} commands, ${samples[0].subscriptions} disposables`);
}

function measureOnce(file) {
  const require = createRequire(import.meta.url);
  const Module = require('node:module');
  const registered = { commands: 0 };
  const member = makeFake(registered);
  // A plain object at the top: the bundle copies the module's own keys (esbuild's ESM interop).
  const fake = Object.fromEntries(
    ['window', 'workspace', 'commands', 'env', 'extensions', 'languages', 'l10n', 'Uri', 'EventEmitter', 'Disposable', 'StatusBarAlignment', 'ThemeColor', 'ThemeIcon', 'ConfigurationTarget', 'FileType', 'FileSystemError', 'Range', 'Position', 'WorkspaceEdit', 'ProgressLocation', 'TreeItem', 'CodeActionKind'].map((k) => [k, member]),
  );
  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return fake;
    return originalLoad.call(this, request, parent, isMain);
  };
  const t0 = performance.now();
  const ext = require(file);
  const t1 = performance.now();
  const context = {
    subscriptions: [],
    extensionUri: member,
    extensionPath: path.dirname(path.dirname(file)),
    workspaceState: new MapMemento(),
    globalState: new MapMemento(),
    secrets: member,
    extension: { id: 'localharness.localharness', packageJSON: { version: 'measure' } },
  };
  ext.activate(context);
  const t2 = performance.now();
  console.log(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, commands: registered.commands, subscriptions: context.subscriptions.length }));
  // Stray timers (debounces) must not keep the measurement alive.
  process.exit(0);
}

class MapMemento {
  map = new Map();
  get(key, fallback) {
    return this.map.has(key) ? this.map.get(key) : fallback;
  }
  update(key, value) {
    this.map.set(key, value);
    return Promise.resolve();
  }
  keys() {
    return [...this.map.keys()];
  }
}

/** Every property is this same callable, constructible no-op; `then` is absent so it is never awaited as a promise. */
function makeFake(registered) {
  const target = function fakeVscode() {};
  const fake = new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* empty() {};
      if (prop === 'registerCommand') {
        return () => {
          registered.commands++;
          return fake;
        };
      }
      return fake;
    },
    set: () => true,
    apply: () => fake,
    construct: () => fake,
  });
  return fake;
}

main();
