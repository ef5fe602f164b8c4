// Asks for approval on the terminal. Without a TTY nobody can answer, so the gate gets no asker (fails closed).
import { createInterface } from 'node:readline';
import type { ApprovalAsker } from '../core/approval/gate';

export function ttyApprovalAsker(input: NodeJS.ReadStream, output: NodeJS.WriteStream): ApprovalAsker | undefined {
  if (!input.isTTY) return undefined;
  return (request, signal) =>
    new Promise((resolve) => {
      const rl = createInterface({ input, output });
      const finish = (approved: boolean, session = false) => {
        rl.close();
        resolve(approved ? { approved: true, scope: session ? 'session' : 'once' } : { approved: false, reason: 'denied by the user' });
      };
      signal.addEventListener('abort', () => finish(false), { once: true });
      output.write(`\n${request.description.title}\n${request.description.detail}\n`);
      rl.question('Allow? [y]es / [s]ession / [N]o: ', (answer) => {
        const a = answer.trim().toLowerCase();
        finish(a === 'y' || a === 'yes' || a === 's' || a === 'session', a === 's' || a === 'session');
      });
    });
}
