// The turn engine (providers, tools, the loop) loads on first use: activation stays cheap. One loader per window,
// shared by the model service and the chat, so the module is imported once; a failed import is tried again.
export type TurnEngine = typeof import('./turnEngine');

export function engineLoader(load: () => Promise<TurnEngine> = () => import('./turnEngine')): () => Promise<TurnEngine> {
  let loading: Promise<TurnEngine> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
