// Imported first by the extension entry point, before any schema exists. zod v4 probes `navigator` to decide
// whether it may compile validators with `new Function`; in the VS Code extension host that global is a trap
// that logs a PendingMigrationError. Interpreted validation is plenty fast for our small messages.
import { config } from 'zod/mini';

config({ jitless: true });
