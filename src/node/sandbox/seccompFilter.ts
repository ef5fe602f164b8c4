// A seccomp filter (classic BPF, the bytes bubblewrap's --seccomp reads) that refuses socket(AF_UNIX, …): with
// no network, a command must not reach the host's daemons through their socket files either (docker, tmux,
// ssh-agent, the editor's own IPC socket), wherever they live. socketpair() stays allowed: node, python and
// make talk to their own children through it. A process of another architecture (32-bit x86 on x86_64, x32)
// could reach sockets through other system calls, so every system call of such a process is refused.
// Pure (unit-tested): the launcher writes the bytes to a file and hands bubblewrap the descriptor.

/** struct sock_filter: u16 code, u8 jt, u8 jf, u32 k (little-endian on both architectures here). */
type Insn = [code: number, jt: number, jf: number, k: number];

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;
/** x32 system calls carry this bit on x86_64. */
const X32_SYSCALL_BIT = 0x40000000;

/** seccomp_data offsets: nr, arch, args[0] (its low 32 bits). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

const ARCHES: Record<string, { audit: number; socket: number }> = {
  x64: { audit: 0xc000003e, socket: 41 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};

/** The filter for this architecture (node's `process.arch`), or undefined where it is not known. */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const deny = SECCOMP_RET_ERRNO | EPERM;
  const program: Insn[] = [
    /* 0 */ [BPF_LD_W_ABS, 0, 0, ARCH],
    /* 1 */ [BPF_JEQ_K, 1, 0, a.audit], // native → 3
    /* 2 */ [BPF_RET_K, 0, 0, deny], // another architecture: nothing
    /* 3 */ [BPF_LD_W_ABS, 0, 0, NR],
    /* 4 */ [BPF_JSET_K, 4, 0, arch === 'x64' ? X32_SYSCALL_BIT : 0], // x32 → 9
    /* 5 */ [BPF_JEQ_K, 0, 2, a.socket], // socket → 6, else → 8
    /* 6 */ [BPF_LD_W_ABS, 0, 0, ARG0],
    /* 7 */ [BPF_JEQ_K, 1, 0, AF_UNIX], // AF_UNIX → 9
    /* 8 */ [BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW],
    /* 9 */ [BPF_RET_K, 0, 0, deny],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
