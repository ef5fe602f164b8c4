// $BROWSER for CLI tests: an executable that runs browser.mjs with this node (made at run time, so it does not
// depend on file modes surviving a checkout).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const BROWSER_SCRIPT = path.join(__dirname, 'browser.mjs');

export function browserCommand(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lh-browser-'));
  const file = path.join(dir, 'browser');
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${BROWSER_SCRIPT}" "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}
