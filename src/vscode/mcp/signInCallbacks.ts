// The way back into the editor after a browser sign-in: the authorization server redirects to a URI the
// extension's UriHandler receives (`<scheme>://<extension id>/mcp-auth?code=…&state=…`; in a browser-based
// editor such as code-server, a page of the editor forwards it). Answers are matched to the sign-in waiting
// for them by their `state`; anything else is ignored.
import type * as vscode from 'vscode';

export const SIGN_IN_PATH = '/mcp-auth';

export class SignInCallbacks implements vscode.UriHandler {
  private readonly waiting = new Map<string, (query: URLSearchParams) => void>();

  constructor(private readonly log: (line: string) => void) {}

  /** Resolves with the answer that carries `state`. */
  expect(state: string): { answer: Promise<URLSearchParams>; cancel: () => void } {
    let deliver: (query: URLSearchParams) => void = () => undefined;
    const answer = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
    this.waiting.set(state, deliver);
    return { answer, cancel: () => this.waiting.delete(state) };
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== SIGN_IN_PATH) {
      this.log(`ignored a link to ${uri.path}: not a sign-in answer`);
      return;
    }
    const query = new URLSearchParams(uri.query);
    const state = query.get('state') ?? '';
    const deliver = this.waiting.get(state);
    if (!deliver) {
      this.log('ignored a sign-in answer that no sign-in is waiting for (an old or foreign link)');
      return;
    }
    this.waiting.delete(state);
    deliver(query);
  }
}
