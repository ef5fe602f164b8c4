// Packages the extension and installs it for code-server once, before any e2e file starts: files that run at
// the same time then share the package and the installed folder (run by scripts/run-tests.mjs).
import { installExtensionOnce } from './codeServer';
import { packageExtension } from './packageExtension';

async function main(): Promise<void> {
  const started = Date.now();
  const vsix = await packageExtension();
  const dir = await installExtensionOnce(vsix);
  console.log(`[e2e prepare] ${vsix} installed in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
