// Secrets that must never leave in the clear or show up in a message: a password inside a base URL
// (`http://user:pw@host`) and an API key that cannot go into an HTTP header (a pasted line break). Both are
// refused before anything is sent, and every message shows the URL with the password masked.

/** The URL as it may be printed: any `user:password@` has its password masked. */
export function redactUrl(raw: string): string {
  return raw.replace(/(^|[a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):([^/@\s]*)@/gi, (_m, scheme: string, user: string) => `${scheme}${user}:***@`);
}

/** Refuses a URL with a user name or password in it; the message never shows the password. */
export function refuseUrlCredentials(url: URL, raw: string, what: string): void {
  if (url.username === '' && url.password === '') return;
  throw new TypeError(
    `${what} "${redactUrl(raw)}" contains a user name or password; remove it from the URL (it would be printed in logs and errors). ` +
      'For a server that needs a key, set the API key instead.',
  );
}

/** Refuses a key that no HTTP header can carry (a line break from pasting, other control characters, non-Latin-1). */
export function checkApiKey(key: string, where = 'The API key'): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    throw new TypeError(`${where} contains a line break or another control character, so it cannot be sent; nothing was sent. Enter it again on one line.`);
  }
  if (/[^\u0020-\u00ff]/.test(key)) throw new TypeError(`${where} contains characters an HTTP header cannot carry; nothing was sent. Check that it was copied correctly.`);
}
