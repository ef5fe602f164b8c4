// Asks for approval on the terminal. Without a TTY nobody can answer, so the gate gets no asker (fails closed).
// A change to a sensitive file, or a command without the sandbox, shows the warning first and can only be allowed once;
// a sandboxed command without network may be allowed the network for this one run.
import type { Interface } from 'node:readline';
import { rememberable, type ApprovalAsker } from '../core/approval/gate';

export function ttyApprovalAsker(input: NodeJS.ReadStream, output: NodeJS.WriteStream): ApprovalAsker | undefined {
  if (!input.isTTY) return undefined;
  return (request, signal) =>
    // readline is loaded when a question is first asked: a run that asks nothing never pays for it.
    import('node:readline').then(({ createInterface }) => new Promise((resolve) => {
      if (signal.aborted) return resolve({ approved: false, reason: 'denied by the user' });
      const rl: Interface = createInterface({ input, output });
      // Asked every time: a sensitive change, or a command without the sandbox. Only "once" can be answered.
      const onceOnly = !!request.description.sensitive || !!request.description.unsandboxed;
      const network = !!request.description.networkOffer;
      // A chained or substituted command: no session rule could cover it, so only "yes" (once) is offered.
      const why = rememberable(request);
      const session = !onceOnly && why === true;
      const finish = (approved: boolean, forSession = false, withNetwork = false) => {
        rl.close();
        if (!approved) return resolve({ approved: false, reason: 'denied by the user' });
        resolve(withNetwork ? { approved: true, scope: 'once', network: true } : { approved: true, scope: forSession && session ? 'session' : 'once' });
      };
      signal.addEventListener('abort', () => finish(false), { once: true });
      // The description's detail already starts with the sensitive-file warning; make it stand out on a colour terminal.
      const detail = onceOnly && output.isTTY ? request.description.detail.replace(/^(.*)/, '\x1b[1;33m$1\x1b[0m') : request.description.detail;
      output.write(`\n${request.description.title}\n${detail}\n${!onceOnly && why !== true ? `(Only once: ${why}.)\n` : ''}`);
      const prompt = request.description.unsandboxed
        ? 'Run it without the sandbox, once? [y]es / [N]o: '
        : onceOnly
          ? 'Allow this change once? [y]es / [N]o: '
          : `Allow? [y]es${session ? ' / [s]ession' : ''}${network ? ' / [w]ith network, once' : ''} / [N]o: `;
      rl.question(prompt, (answer) => {
        const a = answer.trim().toLowerCase();
        const withNetwork = network && !onceOnly && (a === 'w' || a === 'with network');
        const yes = a === 'y' || a === 'yes' || withNetwork || (session && (a === 's' || a === 'session'));
        finish(yes, a === 's' || a === 'session', withNetwork);
      });
    }));
}
