// How servers name models.

/** Ollama treats "qwen3" and "qwen3:latest" as the same model. */
export function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/:latest$/, '');
  return norm(a) === norm(b);
}
