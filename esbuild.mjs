// Builds the three bundles: extension host (CJS, vscode external), CLI (CJS), webview (browser IIFE).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, existsSync, chmodSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const watch = process.argv.includes('--watch');
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
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [zodAsCommonJs],
  },
  {
    ...common,
    entryPoints: ['src/cli/bin/main.ts'],
    outfile: 'dist/cli-main.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Loaded through V8's code cache (vm.Script), which has no dynamic import(): lazy built-ins become require().
    supported: { 'dynamic-import': false },
    // The CLI's bundle has no such lazily-wrapped path (its tests load every part) and starts faster with
    // zod's tree-shaken ESM build: the harness-overhead bench measures it.
    plugins: [zodEnglishOnly],
    define: { VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  },
  {
    // The command itself: turns on V8's code cache, then loads the CLI bundle above.
    ...common,
    entryPoints: ['src/cli/bin/entry.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['./cli-main.js'],
  },
  {
    ...common,
    entryPoints: ['webview-ui/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

mkdirSync('dist', { recursive: true });
// sql.js loads its WebAssembly from disk at run time; ship it beside the bundles.
const wasm = path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
if (existsSync(wasm)) copyFileSync(wasm, 'dist/sql-wasm.wasm');
if (existsSync('webview-ui/style.css')) copyFileSync('webview-ui/style.css', 'dist/webview.css');
// VS Code's own icon font for the panel (its CSS finds the font beside it).
const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(path.join(codicons, file), `dist/${file}`);

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  chmodSync('dist/cli.js', 0o755);
}
