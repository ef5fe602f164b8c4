// A mistake in how the CLI was called: exit code 2, with the reason and the usage text.
export class UsageError extends Error {}
