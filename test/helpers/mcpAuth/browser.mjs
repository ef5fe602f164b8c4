// A stand-in for the user's browser when a CLI runs it as $BROWSER: opens the address it is given and follows
// every redirect (the authorization server approves at once and sends it back to the CLI's loopback address).
// Appends each address it opened to $TEST_BROWSER_LOG when set.
import { appendFileSync } from 'node:fs';

const url = process.argv[2];
if (process.env.TEST_BROWSER_LOG) appendFileSync(process.env.TEST_BROWSER_LOG, `${url}\n`);
const response = await fetch(url, { redirect: 'follow' });
await response.text();
