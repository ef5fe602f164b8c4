// Signing in to an MCP server from the terminal: a one-off HTTP listener on 127.0.0.1 receives the browser's
// redirect (RFC 8252's loopback redirect), the authorization address is printed and opened in the browser
// ($BROWSER, else the system's opener). Only /callback is answered; the session checks the state it carries.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { untilAborted } from '../core/abortable';
import type { SignInInteraction, SignInPort } from '../mcp/auth/types';
import { printable } from './terminalLines';

export interface LoopbackSignInOptions {
  output: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Opens the address in a browser; by default $BROWSER or the platform's opener. */
  openBrowser?: (url: string) => boolean;
}

const PAGE = (ok: boolean) =>
  `<!doctype html><meta charset="utf-8"><title>Local Harness</title><body style="font-family:sans-serif;margin:3em">` +
  `<h2>${ok ? 'Signed in.' : 'The sign-in did not work.'}</h2><p>You can close this tab and go back to the terminal.</p></body>`;

export function loopbackSignIn(o: LoopbackSignInOptions): SignInPort {
  const openBrowser = o.openBrowser ?? ((url: string) => openWithSystem(url, o.env));
  return async (request, signal) => {
    signal.throwIfAborted();
    const server = createServer();
    // The port of the last sign-in, when free: the registration made for it still fits.
    const port = await listen(server, portOf(request.previousRedirectUrl)).catch(() => listen(server, 0));
    const redirectUrl = `http://127.0.0.1:${port}/callback`;
    let deliver: (query: URLSearchParams) => void = () => undefined;
    const answer = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', redirectUrl);
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE(!url.searchParams.has('error')));
      deliver(url.searchParams);
    });
    const interaction: SignInInteraction = {
      redirectUrl,
      async open(authorizationUrl) {
        const opened = openBrowser(authorizationUrl.href);
        o.output.write(
          `\nMCP server "${printable(request.server)}" needs you to sign in at ${printable(new URL(request.authorizationServer).origin)}.\n` +
            `Open this address in your browser${opened ? ' (it should have opened already)' : ''}:\n\n  ${authorizationUrl.href}\n\n` +
            'Waiting for the sign-in to finish (Ctrl-C cancels)…\n',
        );
      },
      result: (resultSignal) => untilAborted(answer, resultSignal),
      dispose() {
        server.close();
        server.closeAllConnections();
      },
    };
    return interaction;
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function portOf(url: string | undefined): number {
  if (!url) return 0;
  try {
    const parsed = new URL(url);
    return parsed.hostname === '127.0.0.1' && parsed.port ? Number(parsed.port) : 0;
  } catch {
    return 0;
  }
}

/** $BROWSER (a command given the address), else `open` / `start` / `xdg-open`. False when nothing was started. */
function openWithSystem(url: string, env: NodeJS.ProcessEnv): boolean {
  let command: string;
  let args: string[];
  if (env.BROWSER) [command, args] = [env.BROWSER, [url]];
  else if (process.platform === 'darwin') [command, args] = ['open', [url]];
  else if (process.platform === 'win32') [command, args] = ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  else if (env.DISPLAY || env.WAYLAND_DISPLAY) [command, args] = ['xdg-open', [url]];
  else return false;
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
