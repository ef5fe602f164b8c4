// A mistake on the command line: exit code 2 and the usage text.
export class UsageError extends Error {}
