// Signing in to an MCP server from the editor: a modal asks first (nothing opens without a yes), then the
// authorization page opens in the browser (vscode.env.openExternal) and the answer comes back to the extension's
// UriHandler; asExternalUri makes that return address work in browser-based editors too (code-server, Codespaces).
// A notification shows the wait and can cancel it.
import * as vscode from 'vscode';
import { SignInDeclined, SignInFailed, type SignInInteraction, type SignInPort } from '../../mcp/auth/types';
import { SIGN_IN_PATH, type SignInCallbacks } from './signInCallbacks';

export interface EditorSignInDeps {
  callbacks: SignInCallbacks;
  extensionId: string;
  log: (line: string) => void;
}

const SIGN_IN = 'Sign In';

export function editorSignIn(deps: EditorSignInDeps): SignInPort {
  return async (request) => {
    const at = new URL(request.authorizationServer).origin;
    const choice = await vscode.window.showInformationMessage(
      `MCP server "${request.server}" wants you to sign in.`,
      {
        modal: true,
        detail:
          `Sign in at ${at} in your browser; it opens when you click ${SIGN_IN}. Local Harness keeps the tokens in VS Code's ` +
          `secret storage and sends them only to ${new URL(request.serverUrl).origin}. "Sign Out of MCP Server" removes them.`,
      },
      SIGN_IN,
    );
    if (choice !== SIGN_IN) throw new SignInDeclined(`you did not sign in; start the server again to sign in`);
    const callback = await vscode.env.asExternalUri(vscode.Uri.parse(`${vscode.env.uriScheme}://${deps.extensionId}${SIGN_IN_PATH}`));
    let expected: ReturnType<SignInCallbacks['expect']> | undefined;
    const interaction: SignInInteraction = {
      redirectUrl: callback.toString(true),
      async open(authorizationUrl) {
        const state = authorizationUrl.searchParams.get('state');
        if (!state) throw new SignInFailed('the authorization request carries no state to recognise the answer by');
        expected = deps.callbacks.expect(state);
        deps.log(`opening the sign-in page of ${at} for MCP server "${request.server}"`);
        // A string is passed through as is; a Uri would be re-encoded, which breaks the signed query.
        const opened = await vscode.env.openExternal(authorizationUrl.href as unknown as vscode.Uri);
        if (!opened) throw new SignInFailed(`the browser did not open; the sign-in page is ${authorizationUrl.origin}`);
      },
      result(signal) {
        if (!expected) return Promise.reject(new SignInFailed('the sign-in page was never opened'));
        const answer = expected.answer;
        return Promise.resolve(
          vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: `Signing in to MCP server "${request.server}": finish in your browser…`, cancellable: true },
            (_progress, token) =>
              new Promise<URLSearchParams>((resolve, reject) => {
                const stop = (why: SignInFailed) => reject(why);
                token.onCancellationRequested(() => stop(new SignInDeclined('you cancelled the sign-in')));
                // The session words a timeout ("nobody finished the sign-in within …") from the signal's reason.
                signal.addEventListener('abort', () => reject(signal.reason), { once: true });
                answer.then(resolve, reject);
              }),
          ),
        );
      },
      dispose() {
        expected?.cancel();
      },
    };
    return interaction;
  };
}
