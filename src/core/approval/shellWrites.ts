// The files a run_command line visibly writes: redirections, tee, sed -i, cp/mv/install/ln onto a path,
// rm/touch/truncate/chmod of a file, dd of=, curl -o, git config, npm pkg set. Conservative: it reads only what
// is written out; a write it cannot see is not claimed, and ordinary command approval still applies.
import { tokenizeShell, type ShellToken } from './shellTokens';

export interface ShellWrite {
  /** As written, relative to the command's directory (after any `cd` earlier in the line); "~/…" for the home folder. */
  path: string;
  /** The construct that writes it: ">", "tee", "sed -i", "git config", … */
  via: string;
}

const MAX_NESTING = 4;

export function findShellWrites(command: string): ShellWrite[] {
  const out: ShellWrite[] = [];
  collect(command, out, 0);
  const seen = new Set<string>();
  return out.filter((w) => {
    // /dev/null and friends are not files; ">(…)" is a process substitution, read on its own.
    if (w.path === '' || w.path.startsWith('/dev/') || /^[<>]\(/.test(w.path)) return false;
    const key = `${w.path}\0${w.via}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collect(command: string, out: ShellWrite[], depth: number): void {
  if (depth > MAX_NESTING) return;
  const { tokens, nested } = tokenizeShell(command);
  let base = '';
  for (const simple of splitCommands(tokens)) {
    const { words, redirects } = simple;
    for (const r of redirects) out.push({ path: join(base, r.path), via: r.via });
    const argv = stripWrappers(words);
    if (argv.length === 0) continue;
    const name = commandName(argv[0]!);
    const args = argv.slice(1);
    if (name === 'cd') {
      base = cdTarget(base, args);
      continue;
    }
    if (SHELLS.has(name)) {
      const script = shellScript(args);
      if (script !== undefined) collect(script, out, depth + 1);
      continue;
    }
    if (name === 'eval') {
      collect(args.join(' '), out, depth + 1);
      continue;
    }
    for (const w of writesOf(name, args)) out.push({ path: w.path.startsWith('~') || w.path.startsWith('/') ? w.path : join(base, w.path), via: w.via });
  }
  for (const inner of nested) collect(inner, out, depth + 1);
}

interface SimpleCommand {
  words: string[];
  redirects: Array<{ path: string; via: string }>;
}

const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '\n', '(', ')']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function splitCommands(tokens: readonly ShellToken[]): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'word') {
      current.words.push(t.text);
      continue;
    }
    if (SEPARATORS.has(t.text)) {
      commands.push(current);
      current = { words: [], redirects: [] };
      continue;
    }
    // A redirection: its operand is the next word.
    const next = tokens[i + 1];
    if (next?.kind !== 'word') continue;
    i++;
    if (WRITE_REDIRECTS.has(t.text)) current.redirects.push({ path: next.text, via: (t.fd ?? '') + t.text });
    else if (t.text === '>&' && !/^(\d+|-)$/.test(next.text)) current.redirects.push({ path: next.text, via: '>&' });
  }
  commands.push(current);
  return commands;
}

/** Reserved words, variable assignments and wrappers that run the rest of the line as a command. */
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'time']);
const WRAPPERS: Record<string, Set<string>> = {
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S']),
  nice: new Set(['-n']),
  nohup: new Set(),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  stdbuf: new Set(['-i', '-o', '-e']),
};

function stripWrappers(words: readonly string[]): string[] {
  let i = 0;
  for (;;) {
    while (i < words.length && (RESERVED.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
    const name = i < words.length ? commandName(words[i]!) : '';
    if (name === 'timeout') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i += ['-s', '-k', '--signal', '--kill-after'].includes(words[i]!) ? 2 : 1;
      i++; // the duration
      continue;
    }
    const withArg = WRAPPERS[name];
    if (!withArg) return words.slice(i);
    i++;
    while (i < words.length && (words[i]!.startsWith('-') || (name === 'env' && words[i]!.includes('=')))) {
      i += withArg.has(words[i]!) ? 2 : 1;
    }
  }
}

function commandName(word: string): string {
  const bare = word.replace(/^\\/, '');
  return bare.slice(bare.lastIndexOf('/') + 1);
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash']);

/** The script of `bash -c '…'` (also `-lc`, `-ec`), or undefined when the shell reads a file or stdin. */
function shellScript(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '--') return undefined;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return args[i + 1];
    if (a === '-o' || a === '+o') i++;
  }
  return undefined;
}

function cdTarget(base: string, args: readonly string[]): string {
  const dir = args.find((a) => !a.startsWith('-'));
  if (dir === undefined || dir === '~') return '~';
  if (dir.startsWith('/') || dir.startsWith('~')) return dir;
  return join(base, dir);
}

function join(base: string, path: string): string {
  if (base === '' || path.startsWith('/') || path.startsWith('~')) return path;
  return `${base.replace(/\/$/, '')}/${path}`;
}

interface Parsed {
  operands: string[];
  /** Option values by option name ("-t", "--target-directory"). */
  values: Map<string, string>;
  flags: Set<string>;
}

/** getopt-style parsing: `withArg` options take a value (attached or next word); `--` ends the options. */
function parseOptions(args: readonly string[], withArg: readonly string[]): Parsed {
  const parsed: Parsed = { operands: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      parsed.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) parsed.values.set(a.slice(0, eq), a.slice(eq + 1));
      else if (withArg.includes(a)) parsed.values.set(a, args[++i] ?? '');
      else parsed.flags.add(a);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const opt = `-${a[j]}`;
        if (withArg.includes(opt)) {
          parsed.values.set(opt, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        parsed.flags.add(opt);
      }
    } else parsed.operands.push(a);
  }
  return parsed;
}

type Found = Array<{ path: string; via: string }>;

function writesOf(name: string, args: readonly string[]): Found {
  const each = (paths: readonly string[], via = name): Found => paths.map((path) => ({ path, via }));
  switch (name) {
    case 'tee':
      return each(parseOptions(args, []).operands);
    case 'sed':
      return inPlace(args, 'sed -i', ['-e', '-f', '-l', '--expression', '--file', '--line-length']);
    case 'perl':
      return inPlace(args, 'perl -i', ['-e', '-E', '-M', '-m', '-I', '-x']);
    case 'cp':
    case 'install':
    case 'ln':
      return copyLike(name, args, false);
    case 'mv':
      return copyLike(name, args, true);
    case 'rm':
    case 'rmdir':
    case 'unlink':
      return each(parseOptions(args, []).operands);
    case 'touch':
      return each(parseOptions(args, ['-d', '-r', '-t', '--date', '--reference']).operands);
    case 'shred':
      return each(parseOptions(args, ['-n', '-s', '--iterations', '--size']).operands);
    case 'truncate':
      return each(parseOptions(args, ['-s', '-r', '--size', '--reference']).operands);
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return permissions(name, args);
    case 'dd':
      return each(args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)), 'dd of=');
    case 'curl': {
      const p = parseOptions(args, ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '-d', '--data', '-H', '--header', '-X', '--request', '-u', '--user', '-A', '-e', '-m', '-x', '-F', '-T', '-b', '-K', '-w', '-r', '-E', '--url']);
      return each([p.values.get('-o'), p.values.get('--output')].filter((v): v is string => !!v && v !== '-'), 'curl -o');
    }
    case 'wget': {
      const p = parseOptions(args, ['-O', '--output-document', '-o', '--output-file', '-P', '-U', '-e', '-t', '-T', '--header']);
      return each([p.values.get('-O'), p.values.get('--output-document')].filter((v): v is string => !!v && v !== '-'), 'wget -O');
    }
    case 'git':
      return git(args);
    case 'npm':
    case 'pnpm': {
      const [sub, action] = args.filter((a) => !a.startsWith('-'));
      if ((sub === 'pkg' && (action === 'set' || action === 'delete' || action === 'fix')) || sub === 'set-script') {
        return [{ path: 'package.json', via: `${name} ${sub}` }];
      }
      return [];
    }
    default:
      return [];
  }
}

/** sed -i / perl -i: the files after the script (the first operand is the script unless -e/-f gave one). */
function inPlace(args: readonly string[], via: string, withArg: readonly string[]): Found {
  let inPlaceFlag = false;
  let scriptGiven = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '--in-place' || a.startsWith('--in-place=')) inPlaceFlag = true;
    else if (a.startsWith('--')) {
      const name = a.split('=')[0]!;
      if (name === '--expression' || name === '--file') scriptGiven = true;
      if (!a.includes('=') && withArg.includes(a)) i++;
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (ch === 'i') {
          inPlaceFlag = true;
          // BSD sed takes the backup suffix as its own word: `sed -i '' …`.
          if (j === a.length - 1 && args[i + 1] === '') i++;
          break; // the rest of the word is the backup suffix
        }
        if (withArg.includes(`-${ch}`)) {
          if (ch === 'e' || ch === 'E' || ch === 'f') scriptGiven = true;
          if (j === a.length - 1) i++;
          break;
        }
      }
    } else operands.push(a);
  }
  if (!inPlaceFlag) return [];
  return (scriptGiven ? operands : operands.slice(1)).map((path) => ({ path, via }));
}

/** cp/mv/install/ln: the destination (and the file it becomes inside a destination folder); mv also empties its sources. */
function copyLike(name: string, args: readonly string[], sourcesToo: boolean): Found {
  const p = parseOptions(args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group', '--backup']);
  const via = name;
  const dir = p.values.get('-t') ?? p.values.get('--target-directory');
  if (name === 'install' && p.flags.has('-d')) return p.operands.map((path) => ({ path, via }));
  let sources: string[];
  let dest: string | undefined;
  if (dir !== undefined) {
    sources = p.operands;
    dest = dir;
  } else if (p.operands.length >= 2) {
    sources = p.operands.slice(0, -1);
    dest = p.operands.at(-1)!;
  } else if (name === 'ln' && p.operands.length === 1) {
    return [{ path: basename(p.operands[0]!), via }];
  } else return [];
  const found: Found = [{ path: dest, via }];
  // The destination may be a folder: the file lands inside it under its own name.
  for (const s of sources) found.push({ path: `${dest.replace(/\/+$/, '')}/${basename(s)}`, via });
  if (sourcesToo) for (const s of sources) found.push({ path: s, via });
  return found;
}

function permissions(name: string, args: readonly string[]): Found {
  const p = parseOptions(args, ['--reference', '--from']);
  const words = [...p.operands];
  // "chmod -x file": -x is the mode, not an option.
  const modeAsFlag = name === 'chmod' && args.some((a) => /^-[rwxXst]+$/.test(a));
  const hasReference = p.values.has('--reference');
  const files = modeAsFlag || hasReference ? words : words.slice(1);
  return files.map((path) => ({ path, via: name }));
}

function git(args: readonly string[]): Found {
  let base = '';
  let i = 0;
  // Global options before the subcommand; -C moves where git works.
  while (i < args.length && args[i]!.startsWith('-')) {
    const a = args[i]!;
    if (a === '-C') base = join(base, args[++i] ?? '');
    else if (a === '-c' || a === '--git-dir' || a === '--work-tree' || a === '--namespace') i++;
    i++;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const local = join(base, '.git/config');
  if (sub === 'config') {
    const p = parseOptions(rest, ['-f', '--file', '--blob', '--type', '--default', '--comment']);
    const writes =
      ['--add', '--unset', '--unset-all', '--replace-all', '--rename-section', '--remove-section', '--edit', '-e'].some((f) => p.flags.has(f)) ||
      ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(p.operands[0] ?? '') ||
      (p.operands.length >= 2 && !['get', 'list', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool'].includes(p.operands[0]!) && ![...p.flags].some((f) => f.startsWith('--get') || f === '-l' || f === '--list'));
    if (!writes) return [];
    const file = p.values.get('-f') ?? p.values.get('--file');
    const target = file !== undefined ? join(base, file) : p.flags.has('--global') ? '~/.gitconfig' : p.flags.has('--system') ? '/etc/gitconfig' : local;
    return [{ path: target, via: 'git config' }];
  }
  if (sub === 'remote' && ['add', 'set-url', 'remove', 'rm', 'rename', 'set-head', 'set-branches'].includes(rest.find((a) => !a.startsWith('-')) ?? '')) {
    return [{ path: local, via: 'git remote' }];
  }
  return [];
}

function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
