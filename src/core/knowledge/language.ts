// Which language a file is written in, from its name (and its first line when the name says nothing), and which
// chunking strategy that language gets. Ids follow VS Code's language identifiers so the editor and the index agree.

const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  sc: 'scala',
  swift: 'swift',
  dart: 'dart',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  ino: 'cpp',
  m: 'objective-c',
  mm: 'objective-cpp',
  php: 'php',
  groovy: 'groovy',
  gradle: 'groovy',
  proto: 'proto3',
  zig: 'zig',
  sol: 'solidity',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'mdx',
  rb: 'ruby',
  lua: 'lua',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  ps1: 'powershell',
  sql: 'sql',
  json: 'json',
  jsonc: 'jsonc',
  json5: 'json5',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  xml: 'xml',
  svg: 'xml',
  html: 'html',
  htm: 'html',
  vue: 'vue',
  svelte: 'svelte',
  css: 'css',
  scss: 'scss',
  less: 'less',
  txt: 'plaintext',
  rst: 'restructuredtext',
  tex: 'latex',
  r: 'r',
  jl: 'julia',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
  ml: 'ocaml',
  clj: 'clojure',
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  mk: 'makefile',
  cmake: 'cmake',
  tf: 'terraform',
  graphql: 'graphql',
  gql: 'graphql',
  csv: 'csv',
  log: 'log',
};

const BY_FILE_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  'cmakelists.txt': 'cmake',
  gemfile: 'ruby',
  rakefile: 'ruby',
  jenkinsfile: 'groovy',
  '.bashrc': 'shellscript',
  '.zshrc': 'shellscript',
  '.profile': 'shellscript',
};

const BY_INTERPRETER: Array<[RegExp, string]> = [
  [/\bpython[\d.]*\b/, 'python'],
  [/\b(node|deno|bun)\b/, 'javascript'],
  [/\b(ts-node|tsx)\b/, 'typescript'],
  [/\b(bash|sh|zsh|dash|ksh)\b/, 'shellscript'],
  [/\bruby\b/, 'ruby'],
  [/\bphp\b/, 'php'],
  [/\bperl\b/, 'perl'],
];

/** The file's language id (VS Code's ids, e.g. "typescript", "python", "markdown"); "plaintext" when unknown. */
export function detectLanguage(path: string, text?: string): string {
  const base = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const byName = BY_FILE_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf('.');
  const byExtension = dot >= 0 ? BY_EXTENSION[base.slice(dot + 1)] : undefined;
  if (byExtension) return byExtension;
  if (base.startsWith('dockerfile')) return 'dockerfile';
  if (text?.startsWith('#!')) {
    const firstLine = text.slice(0, text.search(/\r|\n|$/));
    for (const [pattern, language] of BY_INTERPRETER) if (pattern.test(firstLine)) return language;
  }
  if (text !== undefined && /^<\?php\b/.test(text)) return 'php';
  return 'plaintext';
}

/** How a language is cut into chunks. */
export type ChunkStrategy = 'script' | 'python' | 'go' | 'rust' | 'c-like' | 'markdown' | 'text';

const STRATEGIES: Record<string, ChunkStrategy> = {
  typescript: 'script',
  typescriptreact: 'script',
  javascript: 'script',
  javascriptreact: 'script',
  python: 'python',
  go: 'go',
  rust: 'rust',
  markdown: 'markdown',
  mdx: 'markdown',
};

const C_LIKE = new Set([
  'java',
  'kotlin',
  'scala',
  'swift',
  'dart',
  'csharp',
  'c',
  'cpp',
  'objective-c',
  'objective-cpp',
  'php',
  'groovy',
  'proto3',
  'zig',
  'solidity',
]);

export function chunkStrategyFor(language: string): ChunkStrategy {
  return STRATEGIES[language] ?? (C_LIKE.has(language) ? 'c-like' : 'text');
}
