// The four file tools both minimal loops offer (minimal-loop.mjs, minimal-loop-ollama.mjs): plain functions over
// the workspace and their JSON Schema definitions, nothing else.
import { readFile, writeFile, readdir, rename } from 'node:fs/promises';
import path from 'node:path';

export function minimalTools(workspace) {
  const at = (p) => path.join(workspace, p);

  const tools = {
    list_directory: async ({ path: p }) => (await readdir(at(p))).join('\n'),
    read_file: async ({ path: p }) => readFile(at(p), 'utf8'),
    write_file: async ({ path: p, content }) => (await writeFile(at(p), content), 'ok'),
    move_file: async ({ source, destination }) => (await rename(at(source), at(destination)), 'ok'),
  };
  const str = { type: 'string' };
  const defs = [
    ['list_directory', { path: str }],
    ['read_file', { path: str }],
    ['write_file', { path: str, content: str }],
    ['move_file', { source: str, destination: str }],
  ].map(([name, properties]) => ({
    type: 'function',
    function: { name, description: name, parameters: { type: 'object', properties, required: Object.keys(properties) } },
  }));
  return { tools, defs };
}
