// A scripted user at a terminal: the command runs in a pseudo-terminal (util-linux `script`), and whenever the
// screen ends in a question the user's answer is typed. Plus the arguments a scripted model fills in for a
// tool from its JSON Schema.
import { spawn } from 'node:child_process';

export function shellQuote(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Runs `command` on a pty; `answer` sees what appeared since the last answer (ANSI codes removed). */
export function runInTerminal(command: string, env: NodeJS.ProcessEnv, answer: (screen: string) => string | undefined): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let answeredAt = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const screen = output.slice(answeredAt).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
      const reply = answer(screen);
      if (reply === undefined) return;
      answeredAt = output.length;
      child.stdin.write(reply);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Plausible arguments for a tool's input schema: small numbers, short strings, true, the first enum value. */
export function argumentsFor(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const args: Record<string, unknown> = {};
  let n = 2;
  for (const [name, p] of Object.entries(properties)) {
    if (!required.has(name)) continue;
    if (p.enum?.length) args[name] = p.enum[0];
    else if (p.type === 'number' || p.type === 'integer') args[name] = n++;
    else if (p.type === 'boolean') args[name] = true;
    else args[name] = 'conformance';
  }
  return args;
}
