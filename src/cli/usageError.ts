// A mistake in how the CLI was called: exit code 2 and the usage text.
export class UsageError extends Error {}
