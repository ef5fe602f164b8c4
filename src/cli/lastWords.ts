// What must reach the disk when the CLI exits without winding down (a second Ctrl-C, or work that does not stop
// within the grace period): e.g. an "interrupted" result for a tool call still running, so the stored session
// stays well-formed. Hooks run synchronously, just before process.exit.
const hooks = new Set<() => void>();

/** Registers a hook; call the returned function to remove it (the work finished normally). */
export function atLastMoment(hook: () => void): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

export function runLastWords(): void {
  for (const hook of [...hooks]) {
    hooks.delete(hook);
    try {
      hook();
    } catch {
      // Exiting anyway: one failed hook must not stop the others.
    }
  }
}
