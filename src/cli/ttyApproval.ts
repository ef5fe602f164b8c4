// Asks for approval on the terminal. Without a TTY nobody can answer, so the gate gets no asker (fails closed).
// A change to a sensitive file shows the warning first and can only be allowed once.
import type { Interface } from 'node:readline';
import type { ApprovalAsker } from '../core/approval/gate';

export function ttyApprovalAsker(input: NodeJS.ReadStream, output: NodeJS.WriteStream): ApprovalAsker | undefined {
  if (!input.isTTY) return undefined;
  return (request, signal) =>
    // readline is loaded when a question is first asked: a run that asks nothing never pays for it.
    import('node:readline').then(({ createInterface }) => new Promise((resolve) => {
      if (signal.aborted) return resolve({ approved: false, reason: 'denied by the user' });
      const rl: Interface = createInterface({ input, output });
      const sensitive = !!request.description.sensitive;
      const finish = (approved: boolean, session = false) => {
        rl.close();
        resolve(approved ? { approved: true, scope: session && !sensitive ? 'session' : 'once' } : { approved: false, reason: 'denied by the user' });
      };
      signal.addEventListener('abort', () => finish(false), { once: true });
      // The description's detail already starts with the sensitive-file warning; make it stand out on a colour terminal.
      const detail = sensitive && output.isTTY ? request.description.detail.replace(/^(.*)/, '\x1b[1;33m$1\x1b[0m') : request.description.detail;
      output.write(`\n${request.description.title}\n${detail}\n`);
      const prompt = sensitive ? 'Allow this change once? [y]es / [N]o: ' : 'Allow? [y]es / [s]ession / [N]o: ';
      rl.question(prompt, (answer) => {
        const a = answer.trim().toLowerCase();
        const yes = a === 'y' || a === 'yes' || (!sensitive && (a === 's' || a === 'session'));
        finish(yes, a === 's' || a === 'session');
      });
    }));
}
