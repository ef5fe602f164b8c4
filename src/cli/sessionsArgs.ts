// Arguments of `sessions messages` and `sessions rewind` (plain `sessions` lists the sessions).
import * as path from 'node:path';
import { UsageError } from './usageError';

/** `workspace`: the folder a rewind may write in (--workspace, default the current directory), absolute. */
export type SessionsAction =
  | { kind: 'messages'; session: string }
  | { kind: 'rewind'; session: string; to: number; force: boolean; workspace: string }
  | { kind: 'undo-rewind'; session: string; force: boolean; workspace: string };

type Values = Record<string, string | boolean | string[] | undefined>;

/** undefined: plain `sessions` (the list). */
export function parseSessionsAction(rest: readonly string[], values: Values, cwd: string): SessionsAction | undefined {
  const [sub, ...extra] = rest;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" after \`sessions ${sub}\``);
  const session = typeof values.session === 'string' ? values.session : undefined;
  const to = typeof values.to === 'string' ? values.to : undefined;
  if (sub === undefined) {
    for (const option of ['session', 'to', 'force', 'undo', 'workspace'] as const) {
      const owners = option === 'session' ? '`sessions messages` or `sessions rewind`' : '`sessions rewind`';
      if (values[option] !== undefined) throw new UsageError(`--${option} only works with ${owners}`);
    }
    return undefined;
  }
  if (sub !== 'messages' && sub !== 'rewind') throw new UsageError(`unknown sessions action "${sub}" (messages or rewind)`);
  if (!session) throw new UsageError(`sessions ${sub} needs --session ID (list them with: localharness sessions --db FILE)`);
  if (sub === 'messages') {
    for (const option of ['to', 'force', 'undo', 'workspace'] as const) {
      if (values[option] !== undefined) throw new UsageError(`--${option} only works with \`sessions rewind\``);
    }
    return { kind: 'messages', session };
  }
  const force = !!values.force;
  const workspace = path.resolve(cwd, typeof values.workspace === 'string' ? values.workspace : '.');
  if (values.undo) {
    if (to !== undefined) throw new UsageError('sessions rewind takes either --to MESSAGE or --undo, not both');
    return { kind: 'undo-rewind', session, force, workspace };
  }
  if (to === undefined) throw new UsageError('sessions rewind needs --to MESSAGE (a number from: localharness sessions messages --session ID)');
  if (!/^[1-9]\d{0,8}$/.test(to)) throw new UsageError(`--to must be a message number (1, 2, …), got "${to}"`);
  return { kind: 'rewind', session, to: Number(to), force, workspace };
}
