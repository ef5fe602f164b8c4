// Parts of the extension that load on first use, each built into its own file under dist/lazy/, so that
// dist/extension.js holds only what activation needs (a CommonJS extension cannot use esbuild's code splitting).
//
// A lazy part is named by its module (a source file or a package). Importing that module with import() (or require()
// inside a function) anywhere in the extension becomes require('./lazy/NAME.js') in the output; importing it
// statically is a build error, since the part would load with the file that imports it.
//
// A module can be reached both from extension.js and from a part (zod, the settings types, a tool's class), or from
// two parts. Bundled twice it would exist twice: two classes for one `instanceof`, two caches. So the build runs in
// two passes: the first finds which modules are shared and gives each one owner (extension.js if it has it, else
// the first part in the list that does); the second makes each owner list its shared modules in a registry (a
// global keyed by a Symbol.for name) and every other part read them from there, loading the owner part first.
// Every module then exists once.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const REGISTRY = "globalThis[Symbol.for('localharness.bundledModules')]";
const SHARED = 'bundled-in-extension';

/**
 * @typedef {{ name: string, module: string }} LazyPart  module: a path from the repository root, or a package name
 * @typedef {{ part: string, file: string }} Resolved
 */

/** The absolute file of each part's module. */
export function resolveParts(parts, root) {
  return parts.map((p) => ({ ...p, file: p.module.startsWith('src/') ? path.join(root, p.module) : require.resolve(p.module, { paths: [root] }) }));
}

/** The plugin for one build: `self` is the part being built (MAIN for extension.js), `shared` what sharedModules found. */
export function lazyPartsPlugin({ parts, outdir, lazyDir, self, shared }) {
  const byFile = new Map(parts.map((p) => [p.file, p]));
  return {
    name: 'lazy-parts',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.lazyParts || args.kind === 'entry-point' || args.path === 'vscode' || args.path.startsWith('node:')) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, namespace: args.namespace, pluginData: { lazyParts: true } });
        if (found.errors.length > 0 || found.external || found.namespace !== 'file') return found.errors.length > 0 ? undefined : found;
        const part = byFile.get(found.path);
        if (part && part.name !== self) {
          if (args.kind !== 'dynamic-import' && args.kind !== 'require-call') {
            return { errors: [{ text: `${part.module} loads on first use (dist/lazy/${part.name}.js): import it with import(), not ${args.kind}` }] };
          }
          return { path: './' + path.relative(outdir, path.join(lazyDir, `${part.name}.js`)).split(path.sep).join('/'), external: true };
        }
        const owned = shared?.get(found.path);
        if (owned && owned.owner !== self) return { path: found.path, namespace: SHARED, pluginData: owned };
        return found;
      });
      // A module another output owns: read its instance from the registry (through one helper per output).
      b.onLoad({ filter: /.*/, namespace: SHARED }, (args) => ({
        loader: 'js',
        contents: args.path === RUNTIME ? RUNTIME_SOURCE : shimSource(args.pluginData),
      }));
      b.onResolve({ filter: /^lazy-parts:runtime$/ }, () => ({ path: RUNTIME, namespace: SHARED }));
      // The owner part of a module, loaded before the module is read from the registry.
      b.onResolve({ filter: /^lazy-parts:part:/ }, (args) => ({
        path: './' + path.relative(outdir, path.join(lazyDir, `${args.path.slice('lazy-parts:part:'.length)}.js`)).split(path.sep).join('/'),
        external: true,
      }));
    },
  };
}

const RUNTIME = 'lazy-parts:runtime';

function shimSource({ key, format, owner }) {
  const load = owner === MAIN ? '' : `require(${JSON.stringify(`lazy-parts:part:${owner}`)}); `;
  return `${load}module.exports = require(${JSON.stringify(RUNTIME)}).${format}(${JSON.stringify(key)});`;
}
// A CommonJS module is registered as its module.exports; an ES module as its namespace, which the part's CommonJS
// view must mark as such so that a default import gets `default`, not the whole namespace.
const RUNTIME_SOURCE = `function lookup(key) {
  var registry = ${REGISTRY};
  var m = registry && registry[key];
  if (m === undefined) throw new Error('dist/extension.js does not provide ' + key + '; a lazy part must come from the same build');
  return m;
}
exports.cjs = lookup;
exports.esm = function (key) {
  var m = lookup(key);
  var view = Object.defineProperty({}, '__esModule', { value: true });
  Object.keys(m).forEach(function (k) { Object.defineProperty(view, k, { enumerable: true, get: function () { return m[k]; } }); });
  return view;
};`;

/** Source of the entry that runs `entry` and then registers `modules` (after it, so zod is configured first). */
export function registryEntry(entry, modules) {
  if (modules.size === 0) return `export * from ${JSON.stringify(entry)};`;
  const lines = [`export * from ${JSON.stringify(entry)};`];
  const fields = [];
  [...modules.entries()].forEach(([file, info], i) => {
    if (info.format === 'cjs') fields.push(`${JSON.stringify(info.key)}: require(${JSON.stringify(file)})`);
    else {
      lines.push(`import * as m${i} from ${JSON.stringify(file)};`);
      fields.push(`${JSON.stringify(info.key)}: m${i}`);
    }
  });
  lines.push(`${REGISTRY} = Object.assign(${REGISTRY} || {}, { ${fields.join(', ')} });`);
  return lines.join('\n');
}

export const MAIN = '';

/** Every module in more than one output, with its owner (MAIN or a part's name) and its registry key. */
export function sharedModules(main, partMetas, root) {
  // Every module an output's graph reaches counts, even one tree-shaken to nothing there: the owner's registry
  // imports the whole module, and with it all its imports, which are then in the owner's graph too, so an owner
  // never needs a later part. Inputs from a plugin's namespace (`namespace:path`) are not files and are not shared.
  const files = (meta) => Object.keys(meta.inputs).filter((input) => !/^[\w-]{2,}:/.test(input));
  const seen = new Map(); // file -> the first output that has it, and how many do
  for (const [owner, meta] of [[MAIN, main], ...partMetas]) {
    for (const input of files(meta)) {
      const file = path.resolve(root, input);
      const entry = seen.get(file) ?? { owner, format: meta.inputs[input]?.format === 'cjs' ? 'cjs' : 'esm', count: 0 };
      entry.count++;
      seen.set(file, entry);
    }
  }
  const shared = new Map();
  for (const [file, { owner, format, count }] of seen) {
    if (count < 2) continue;
    const rel = path.relative(root, file).split(path.sep).join('/');
    // A package's file is named from its package, wherever node_modules is.
    const key = rel.includes('node_modules/') ? rel.slice(rel.lastIndexOf('node_modules/') + 'node_modules/'.length) : rel;
    shared.set(file, { key, format, owner });
  }
  return shared;
}

/** The shared modules `owner` registers. */
export function ownedBy(shared, owner) {
  return new Map([...shared].filter(([, info]) => info.owner === owner));
}

/** Builds extension.js and its parts in the two passes described above. */
export async function buildWithLazyParts({ main, parts: declared, root, lazyDir }) {
  const parts = resolveParts(declared, root);
  const outdir = path.dirname(main.outfile);
  const { entryPoints, ...rest } = main;
  const partOptions = (p, shared) => {
    const owned = shared ? ownedBy(shared, p.name) : new Map();
    return {
      ...rest,
      ...(owned.size > 0
        ? { stdin: { contents: registryEntry(p.file, owned), resolveDir: root, sourcefile: `${p.name}-entry.js`, loader: 'js' } }
        : { entryPoints: [p.file] }),
      outfile: path.join(lazyDir, `${p.name}.js`),
      metafile: true,
      plugins: [...(main.plugins ?? []), lazyPartsPlugin({ parts, outdir: lazyDir, lazyDir, self: p.name, shared })],
    };
  };
  const mainPlugin = lazyPartsPlugin({ parts, outdir, lazyDir });
  const first = await esbuild.build({ ...main, write: false, metafile: true, plugins: [...(main.plugins ?? []), mainPlugin] });
  const partFirst = await Promise.all(parts.map((p) => esbuild.build({ ...partOptions(p), write: false })));
  const shared = sharedModules(first.metafile, parts.map((p, i) => [p.name, partFirst[i].metafile]), root);
  const finalMain = esbuild.build({
    ...rest,
    metafile: true,
    stdin: { contents: registryEntry(path.resolve(root, entryPoints[0]), ownedBy(shared, MAIN)), resolveDir: root, sourcefile: 'extension-entry.js', loader: 'js' },
    plugins: [...(main.plugins ?? []), lazyPartsPlugin({ parts, outdir, lazyDir, self: MAIN, shared })],
  });
  const finalParts = parts.map((p) => esbuild.build(partOptions(p, shared)));
  const [mainResult, ...partResults] = await Promise.all([finalMain, ...finalParts]);
  return { main: mainResult.metafile, parts: Object.fromEntries(parts.map((p, i) => [p.name, partResults[i].metafile])), shared };
}
