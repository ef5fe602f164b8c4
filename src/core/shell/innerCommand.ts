// Which command a simple command really runs: `env FOO=1 nice -n 5 npm test` runs npm. Wrappers that only start
// their arguments are seen through (their inner command must then be named by a rule); commands that run a
// script from a string, a file or their input (eval, source, sh -c, xargs, find -exec, env -S…) are refused, since
// a rule for one word of them would cover anything.
import type { Word } from './simpleCommand';

export type Inner = { ok: true; /** Index of the inner command's name. */ index: number } | { ok: false; reason: string };

/** Wrappers and the options of theirs that take a value (the next word, unless attached). */
const WRAPPERS: Record<string, readonly string[]> = {
  env: ['-u', '--unset', '-C', '--chdir'],
  nice: ['-n', '--adjustment'],
  nohup: [],
  command: [],
  builtin: [],
  exec: ['-a'],
  time: ['-f', '--format', '-o', '--output'],
  stdbuf: ['-i', '-o', '-e', '--input', '--output', '--error'],
  setsid: [],
  ionice: ['-c', '-n', '--class', '--classdata'],
  sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir', '--prompt'],
  doas: ['-u', '-C'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
};

/** A shell started by name: with an option (-c, -s, -i…) or no script file it reads commands from a string or input. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash']);
/** Shells whose command strings take other forms (-Command, /c, an applet name): refused whatever follows. */
const OTHER_SHELLS = new Set(['busybox', 'pwsh', 'powershell', 'powershell.exe', 'cmd', 'cmd.exe']);

/** Commands that run a string or their input as commands, whatever their arguments. */
const SCRIPT_RUNNERS: Record<string, string> = {
  eval: 'eval runs its arguments as a command line',
  source: 'source runs a script in the shell',
  '.': '"." runs a script in the shell',
  xargs: 'xargs runs commands built from its input',
  parallel: 'parallel runs commands built from its arguments',
  watch: 'watch runs its arguments through a shell',
  su: 'su starts a shell',
  runuser: 'runuser runs a command as another user',
  pkexec: 'pkexec runs a command as another user',
  'systemd-run': 'systemd-run starts a command outside this one',
  firejail: 'firejail runs a command in its own sandbox',
  chroot: 'chroot runs a command in another root',
  nsenter: 'nsenter runs a command in other namespaces',
  unshare: 'unshare runs a command in new namespaces',
  script: 'script runs a shell',
  flock: 'flock can run a command through a shell',
  coproc: 'coproc starts a command in the background',
  trap: 'trap sets a command to run later',
};

/** Options after which a command runs another command (find -exec, fd -x, rsync -e, git -c core.sshCommand…). */
const RUNS_OPTION: Record<string, RegExp> = {
  find: /^-(?:exec|execdir|ok|okdir)$/,
  fd: /^(?:-x|-X|--exec|--exec-batch)$/,
  rsync: /^(?:-e|--rsh)(?:=|$)/,
  git: /^(?:-c|--config-env|--exec-path)(?:=|$)/,
  tar: /^(?:--to-command|--use-compress-program|-I|--checkpoint-action|--info-script|--new-volume-script|-F)(?:=|$)/,
  ssh: /^-o$|ProxyCommand|LocalCommand/,
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const RESERVED = new Set(['!', '{', '}', '[[', ']]', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', 'select', 'function']);

export function innerCommand(words: readonly Word[]): Inner {
  let i = 0;
  let wrapper = 0;
  for (let hops = 0; hops < 8; hops++) {
    const word = words[i];
    // `env`, `nohup` alone: the wrapper is the command.
    if (!word) return { ok: true, index: wrapper };
    if (ASSIGNMENT.test(word.key)) return { ok: false, reason: `it sets ${word.text.split('=')[0]} for the command (a variable can change what runs)` };
    if (word.expands) return { ok: false, reason: `the command name "${word.text}" is expanded by the shell` };
    const name = baseName(word.text);
    if (RESERVED.has(name)) return { ok: false, reason: `it starts with the shell keyword "${name}"` };
    if (SCRIPT_RUNNERS[name]) return { ok: false, reason: SCRIPT_RUNNERS[name]! };
    const next = words[i + 1];
    if (OTHER_SHELLS.has(name) || (SHELLS.has(name) && (!next || /^[-+]/.test(next.text)))) return { ok: false, reason: `${name} runs commands from a string or its input` };
    const runs = RUNS_OPTION[name];
    if (runs) {
      const hit = words.slice(i + 1).find((w) => runs.test(w.text));
      if (hit) return { ok: false, reason: `${name} ${hit.text} runs another command` };
    }
    const withValue = WRAPPERS[name];
    if (!withValue) return { ok: true, index: i };
    const after = skipOptions(words, i + 1, name, withValue);
    if (!after.ok) return after;
    wrapper = i;
    i = after.index;
  }
  return { ok: false, reason: 'too many wrappers' };
}

function skipOptions(words: readonly Word[], start: number, name: string, withValue: readonly string[]): Inner {
  let i = start;
  while (i < words.length) {
    const w = words[i]!;
    if (w.expands) return { ok: false, reason: `an argument of ${name} ("${w.text}") is expanded by the shell` };
    if (w.text === '--') return { ok: true, index: i + 1 };
    if (name === 'env' && ASSIGNMENT.test(w.key)) {
      i++;
      continue;
    }
    if (name === 'env' && /^(?:-S|--split-string|-[a-zA-Z]*S)/.test(w.text)) return { ok: false, reason: 'env -S splits a string into a command line' };
    if ((name === 'sudo' || name === 'doas') && /^(?:-s|-i|--shell|--login|-[a-zA-Z]*[si][a-zA-Z]*)$/.test(w.text)) return { ok: false, reason: `${name} -s/-i starts a shell` };
    // "env -" is "env -i"; for the others a lone "-" is an operand.
    if (!w.text.startsWith('-') || (w.text === '-' && name !== 'env')) break;
    i += withValue.includes(w.text) ? 2 : 1;
  }
  // timeout's duration and nice's bare "-5" style come before the command.
  if (name === 'timeout') i++;
  return { ok: true, index: i };
}

function baseName(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}
