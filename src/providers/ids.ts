// Ids for tool calls the server did not name (Ollama often sends none).
import { randomBytes } from 'node:crypto';

export function newToolCallId(): string {
  return `call_${randomBytes(9).toString('base64url')}`;
}
