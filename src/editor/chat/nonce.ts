// A fresh script nonce per webview load, from the OS's CSPRNG (never Math.random).
import { randomBytes } from 'node:crypto';

export function createNonce(): string {
  return randomBytes(18).toString('base64');
}
