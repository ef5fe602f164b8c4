// Builds the extension and packages it as a .vsix, reusing the last package when nothing shipped changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { E2E_CACHE, REPO_ROOT } from './paths';
import { runProcess } from './proc';

export interface PackageOptions {
  /** Extension folder (package.json at its root). Defaults to this repo. */
  root?: string;
  /** Run `npm run build` first (default true, unless the test runner built once for all e2e files: LOCALHARNESS_E2E_BUILT=1). */
  build?: boolean;
  signal?: AbortSignal;
}

/** Files outside dist/ and media/ that end up in (or shape) the package. */
const TOP_LEVEL_INPUTS = ['package.json', '.vscodeignore', 'README.md', 'LICENSE', 'CHANGELOG.md'];

export async function packageExtension(options: PackageOptions = {}): Promise<string> {
  const root = options.root ?? REPO_ROOT;
  if (options.build ?? process.env.LOCALHARNESS_E2E_BUILT !== '1') {
    await runProcess('npm', ['run', 'build'], { cwd: root, timeoutMs: 180_000, signal: options.signal });
  }
  const outDir = path.join(E2E_CACHE, 'vsix');
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, `${path.basename(root)}-${hashInputs(root)}.vsix`);
  // Each test file packages; only the first after a change pays for vsce.
  if (existsSync(target)) return target;
  pruneOldPackages(outDir, KEEP_PACKAGES);
  const partial = `${target}.${process.pid}.partial.vsix`;
  const vsce = path.join(REPO_ROOT, 'node_modules/.bin/vsce');
  await runProcess(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--out', partial], {
    cwd: root,
    timeoutMs: 180_000,
    signal: options.signal,
  });
  renameSync(partial, target);
  return target;
}

/** Old packages of earlier builds are only kept for a few runs. */
const KEEP_PACKAGES = 4;

function pruneOldPackages(dir: string, keep: number): void {
  const packages = readdirSync(dir)
    .filter((name) => name.endsWith('.vsix') && !name.includes('.partial.'))
    .map((name) => ({ file: path.join(dir, name), mtime: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of packages.slice(keep)) rmSync(old.file, { force: true });
}

function hashInputs(root: string): string {
  const hash = createHash('sha256');
  const files = TOP_LEVEL_INPUTS.map((f) => path.join(root, f)).filter((f) => existsSync(f));
  for (const dir of ['dist', 'media']) files.push(...listFiles(path.join(root, dir)));
  for (const file of files.sort()) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}
