// The seccomp filter (classic BPF, the bytes bubblewrap's --seccomp reads) every sandboxed command runs under:
// - no unix socket of its own: socket(AF_UNIX) is refused, so the host's daemons (docker, tmux, ssh-agent, the
//   editor's IPC socket) stay out of reach wherever their socket files live, network or not. socketpair() stays
//   for stream and seqpacket pairs (node, python and make talk to their children through them; the kernel ignores
//   an address sent on those), but not for datagram pairs, whose sendto()/sendmsg() with a path reaches any
//   datagram socket the command can see.
// - no io_uring: its requests (socket, connect, openat…) are not seen by seccomp at all. ENOSYS, so libuv and
//   others fall back to ordinary calls.
// - no new user namespace through unshare() or clone() (a namespace of its own would hand back every capability
//   there); bubblewrap's --disable-userns covers clone3() too, and where it is missing clone3() answers ENOSYS,
//   so glibc falls back to clone().
// - a process of another architecture (32-bit x86 on x86_64, x32) could use other numbers or socketcall(), so
//   every system call of such a process is refused.
// Pure (unit-tested by running the program): the launcher writes the bytes to a file and hands bubblewrap the
// descriptor.

/** struct sock_filter: u16 code, u8 jt, u8 jf, u32 k (little-endian on both architectures here). */
type Insn = [code: number, jt: number, jf: number, k: number];

const BPF_LD_W_ABS = 0x20;
const BPF_AND_K = 0x54;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The socket type without SOCK_NONBLOCK / SOCK_CLOEXEC. */
const SOCK_TYPE_MASK = 0xf;
const CLONE_NEWUSER = 0x10000000;
/** x32 system calls carry this bit on x86_64. */
const X32_SYSCALL_BIT = 0x40000000;

/** seccomp_data offsets: nr, arch, args[n] (its low 32 bits). */
const NR = 0;
const ARCH = 4;
const arg = (n: number) => 16 + 8 * n;

interface Arch {
  audit: number;
  x32: boolean;
  socket: number;
  socketpair: number;
  clone: number;
  unshare: number;
}

const ARCHES: Record<string, Arch> = {
  x64: { audit: 0xc000003e, x32: true, socket: 41, socketpair: 53, clone: 56, unshare: 272 },
  arm64: { audit: 0xc00000b7, x32: false, socket: 198, socketpair: 199, clone: 220, unshare: 97 },
};
/** The same on both (the numbers new system calls got everywhere). */
const IO_URING = [425, 426, 427];
const CLONE3 = 435;

export interface FilterOptions {
  /** bubblewrap could not disable new user namespaces itself (older than 0.8): refuse clone3() too. */
  refuseClone3?: boolean;
}

/** The filter for this architecture (node's `process.arch`), or undefined where it is not known. */
export function commandFilter(arch: string = process.arch, options: FilterOptions = {}): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const p = new Program();
  p.load(ARCH);
  p.jumpUnless(a.audit, 'deny');
  p.load(NR);
  if (a.x32) p.jumpIfAny(X32_SYSCALL_BIT, 'deny');
  p.jumpIf(a.socket, 'socket');
  p.jumpIf(a.socketpair, 'socketpair');
  p.jumpIf(a.clone, 'namespace');
  p.jumpIf(a.unshare, 'namespace');
  for (const nr of IO_URING) p.jumpIf(nr, 'nosys');
  if (options.refuseClone3) p.jumpIf(CLONE3, 'nosys');
  p.ret(SECCOMP_RET_ALLOW);
  p.label('socket');
  p.load(arg(0));
  p.jumpIf(AF_UNIX, 'deny');
  p.ret(SECCOMP_RET_ALLOW);
  p.label('socketpair');
  p.load(arg(0));
  p.jumpUnless(AF_UNIX, 'allow');
  p.load(arg(1));
  p.and(SOCK_TYPE_MASK);
  p.jumpIf(SOCK_DGRAM, 'deny');
  p.ret(SECCOMP_RET_ALLOW);
  p.label('namespace');
  p.load(arg(0));
  p.jumpIfAny(CLONE_NEWUSER, 'deny');
  p.label('allow');
  p.ret(SECCOMP_RET_ALLOW);
  p.label('nosys');
  p.ret(SECCOMP_RET_ERRNO | ENOSYS);
  p.label('deny');
  p.ret(SECCOMP_RET_ERRNO | EPERM);
  return p.bytes();
}

/** A tiny assembler: forward jumps to labels, resolved into the 8-bit offsets of classic BPF. */
class Program {
  private readonly insns: Array<Insn | { code: number; k: number; onTrue?: string; onFalse?: string }> = [];
  private readonly labels = new Map<string, number>();

  load(offset: number): void {
    this.insns.push([BPF_LD_W_ABS, 0, 0, offset]);
  }
  and(mask: number): void {
    this.insns.push([BPF_AND_K, 0, 0, mask]);
  }
  jumpIf(value: number, to: string): void {
    this.insns.push({ code: BPF_JEQ_K, k: value, onTrue: to });
  }
  jumpUnless(value: number, to: string): void {
    this.insns.push({ code: BPF_JEQ_K, k: value, onFalse: to });
  }
  jumpIfAny(bits: number, to: string): void {
    this.insns.push({ code: BPF_JSET_K, k: bits, onTrue: to });
  }
  ret(value: number): void {
    this.insns.push([BPF_RET_K, 0, 0, value]);
  }
  label(name: string): void {
    this.labels.set(name, this.insns.length);
  }

  bytes(): Buffer {
    const out = Buffer.alloc(this.insns.length * 8);
    this.insns.forEach((insn, i) => {
      const [code, jt, jf, k] = Array.isArray(insn) ? insn : [insn.code, this.offset(i, insn.onTrue), this.offset(i, insn.onFalse), insn.k];
      out.writeUInt16LE(code, i * 8);
      out.writeUInt8(jt, i * 8 + 2);
      out.writeUInt8(jf, i * 8 + 3);
      out.writeUInt32LE(k >>> 0, i * 8 + 4);
    });
    return out;
  }

  private offset(from: number, label: string | undefined): number {
    if (label === undefined) return 0;
    const to = this.labels.get(label);
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp filter: bad jump to ${label}`);
    return to - from - 1;
  }
}
