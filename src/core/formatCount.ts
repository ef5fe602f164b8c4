// Kept for core's importers; the helper lives in src/shared/format.ts (the webview and the CLI use it too).
export { formatCount } from '../shared/format';
