// Builds the three bundles: extension host (CJS, vscode external), CLI (CJS), webview (browser IIFE).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, existsSync, chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildWithLazyParts } from './scripts/lazyParts.mjs';

const watch = process.argv.includes('--watch');
// --metafile: also write dist/meta/*.json (esbuild's account of every input's bytes; node scripts/bundle-report.mjs).
const writeMeta = process.argv.includes('--metafile');
// --outdir DIR: build into DIR instead of dist/ (a test builds apart from the dist/ other tests read).
const outdirAt = process.argv.indexOf('--outdir');
const out = outdirAt >= 0 ? path.resolve(process.argv[outdirAt + 1]) : 'dist';
const production = process.argv.includes('--production') || !watch;
const require = createRequire(import.meta.url);

// zod's ESM build has circular imports between its core and front-ends; when esbuild must wrap those modules for
// lazy evaluation (any dynamic import() reaching them) the bundle can run a factory before its class exists.
// Its CommonJS build resolves cycles the Node way, so the extension bundles that one.
const zodAsCommonJs = {
  name: 'zod-cjs',
  setup(b) {
    b.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => ({ path: require.resolve(args.path, { paths: [args.resolveDir] }) }));
  },
};

// zod puts every language's error messages (a fifth of the CLI bundle) behind its `locales` namespace export,
// so the bundler cannot drop them; nothing here uses a locale but the default English one. Every process
// compiles the whole bundle before it can send its first request, so the CLI bundles English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// The same for zod's CommonJS build, which the extension bundles: only the English messages.
const zodCommonJsEnglishOnly = {
  name: 'zod-cjs-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '../locales/en.cjs'), namespace: 'zod-cjs-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-cjs-english-only' }, (args) => ({
      contents: `const en = require(${JSON.stringify(args.path)}); exports.en = en.default ?? en;`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// The ollama package imports the whatwg-fetch polyfill, which installs itself only where there is no fetch; Node 20
// (the extension host's too) has one, so the polyfill is 10 KiB of code that never runs.
const platformFetch = {
  name: 'platform-fetch',
  setup(b) {
    b.onResolve({ filter: /^whatwg-fetch$/ }, () => ({ path: 'whatwg-fetch', namespace: 'platform-fetch' }));
    b.onLoad({ filter: /.*/, namespace: 'platform-fetch' }, () => ({ contents: '', loader: 'js' }));
  },
};

// Loaded on first use, each built into dist/lazy/NAME.js (scripts/lazyParts.mjs): importing the module with
// import() loads that file. What activation needs stays in dist/extension.js. A module several parts need belongs to
// the first one listed here (a later part loads that one first), so the order is: most used first.
const lazyParts = [
  // providers, built-in tools, the turn runner, compression, the orchestrator: the first turn or model list
  { name: 'engine', module: 'src/editor/engine/turnEngine.ts' },
  // the MCP SDK with its OAuth client (jose, ajv): the first MCP server start
  { name: 'mcp-sdk', module: 'src/mcp/sdkModules.ts' },
  // MCP servers' lifetimes, sign-in, the tool adapter: the chat's first show or turn, when servers are configured
  { name: 'mcp-manager', module: 'src/mcp/manager.ts' },
  // the workspace index: the first index action, or a turn in a workspace that has one
  { name: 'knowledge', module: 'src/indexing/knowledge.ts' },
  // the session database and its recording: the first turn or the History view
  { name: 'session-store', module: 'src/persistence/sessionStore.ts' },
  { name: 'session-recorder', module: 'src/persistence/sessionRecorder.ts' },
  { name: 'sql-js', module: 'sql.js' },
  // the setup check's probes: Check Model Setup
  { name: 'setup-check', module: 'src/core/setupCheck/runSetupCheck.ts' },
];

const common = {
  bundle: true,
  sourcemap: production ? false : 'inline',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: `${out}/extension.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // import() of a lazy part becomes require('./lazy/NAME.js'): the extension host loads CommonJS.
    supported: { 'dynamic-import': false },
    plugins: [zodCommonJsEnglishOnly, zodAsCommonJs, platformFetch],
  },
  {
    ...common,
    entryPoints: ['src/cli/bin/main.ts'],
    outfile: `${out}/cli-main.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Loaded through V8's code cache (vm.Script), which has no dynamic import(): lazy built-ins become require().
    supported: { 'dynamic-import': false },
    // The CLI's bundle has no such lazily-wrapped path (its tests load every part) and starts faster with
    // zod's tree-shaken ESM build: the harness-overhead bench measures it.
    plugins: [zodEnglishOnly, platformFetch],
    define: { VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  },
  {
    // The command itself: turns on V8's code cache, then loads the CLI bundle above.
    ...common,
    entryPoints: ['src/cli/bin/entry.ts'],
    outfile: `${out}/cli.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['./cli-main.js'],
  },
  {
    ...common,
    entryPoints: ['webview-ui/main.ts'],
    outfile: `${out}/webview.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

mkdirSync(out, { recursive: true });
// sql.js loads its WebAssembly from disk at run time; ship it beside the bundles.
const wasm = path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
if (existsSync(wasm)) copyFileSync(wasm, `${out}/sql-wasm.wasm`);
if (existsSync('webview-ui/style.css')) copyFileSync('webview-ui/style.css', `${out}/webview.css`);
// VS Code's own icon font for the panel (its CSS finds the font beside it).
const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(path.join(codicons, file), `${out}/${file}`);

if (watch) {
  // While watching, the extension is one file (its lazy parts inline): the two-pass build has no watch mode.
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching…');
} else {
  const [extension, ...others] = builds;
  rmSync(`${out}/lazy`, { recursive: true, force: true });
  const [lazy, ...metas] = await Promise.all([
    buildWithLazyParts({ main: extension, parts: lazyParts, root: process.cwd(), lazyDir: path.resolve(out, 'lazy') }),
    ...others.map((b) => esbuild.build({ ...b, metafile: writeMeta })),
  ]);
  chmodSync(`${out}/cli.js`, 0o755);
  if (writeMeta) {
    mkdirSync(`${out}/meta`, { recursive: true });
    writeFileSync(`${out}/meta/extension.json`, JSON.stringify(lazy.main));
    for (const [name, meta] of Object.entries(lazy.parts)) writeFileSync(`${out}/meta/lazy-${name}.json`, JSON.stringify(meta));
    others.forEach((b, i) => writeFileSync(`${out}/meta/${path.basename(b.outfile, '.js')}.json`, JSON.stringify(metas[i].metafile)));
  }
}
