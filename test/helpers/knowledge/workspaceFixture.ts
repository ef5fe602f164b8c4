// A small realistic workspace for the indexing tests: TypeScript modules that call each other, a markdown
// guide, a binary file and a file over the size limit, in a real temp folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CONFIG_TS = `import { readFileSync } from 'node:fs';

export interface ServerConfig {
  port: number;
  host: string;
}

/** Reads the server settings from a JSON file and fills in defaults. */
export function parseConfig(file: string): ServerConfig {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  return { port: Number(raw.port ?? 8080), host: String(raw.host ?? 'localhost') };
}

export function validatePort(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port < 65536;
}
`;

export const SERVER_TS = `import { parseConfig, validatePort } from './config';

export class HttpServer {
  private running = false;

  start(configFile: string): void {
    const config = parseConfig(configFile);
    if (!validatePort(config.port)) throw new Error('bad port');
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }
}
`;

export const BILLING_TS = `export function computeInvoiceTotal(lines: Array<{ price: number; quantity: number }>): number {
  return lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
}

export function applyDiscount(total: number, percent: number): number {
  return total - (total * percent) / 100;
}
`;

export const GUIDE_MD = `# Deployment guide

How to deploy the service.

## Rolling back

Run the rollback script with the previous release tag to restore the last good version.

## Monitoring

Dashboards show request latency and error rates.
`;

export function makeWorkspace(prefix = 'lh-index-'): string {
  const ws = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(ws, 'src'));
  mkdirSync(path.join(ws, 'docs'));
  mkdirSync(path.join(ws, 'assets'));
  writeFileSync(path.join(ws, 'src/config.ts'), CONFIG_TS);
  writeFileSync(path.join(ws, 'src/server.ts'), SERVER_TS);
  writeFileSync(path.join(ws, 'src/billing.ts'), BILLING_TS);
  writeFileSync(path.join(ws, 'docs/guide.md'), GUIDE_MD);
  // A PNG header and some pixels: NUL bytes within the first bytes, like any real image.
  writeFileSync(path.join(ws, 'assets/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, ...Array(64).fill(7)]));
  // A generated bundle past the 1 MiB limit.
  writeFileSync(path.join(ws, 'assets/bundle.js'), 'var x = 1;\n'.repeat(110_000));
  return ws;
}
