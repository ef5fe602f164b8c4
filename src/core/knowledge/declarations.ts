// What a top-level (or class-level) piece of code declares, read from its first lines: kind and name. Regular
// expressions per language family; anything they do not recognise is an unnamed 'block'.
import type { ChunkKind } from './types';
import type { ChunkStrategy } from './language';

export interface Declaration {
  kind: ChunkKind;
  name?: string;
  /** import / use / package lines: grouped into one chunk. */
  imports?: boolean;
  /**
   * A body worth cutting into its members when it is too long: 'members' (a class: methods get their own
   * chunks) or 'top' (a namespace or module: its contents read like top-level code).
   */
  container?: 'members' | 'top';
}

export interface DeclarationContext {
  /** Read as class members (methods, fields) rather than top-level declarations. */
  member: boolean;
  /** The enclosing class, for member names like `Store.get`. */
  owner?: string;
}

const BLOCK: Declaration = { kind: 'block' };

export function classifyDeclaration(strategy: ChunkStrategy, head: string, context: DeclarationContext): Declaration {
  const found =
    strategy === 'script'
      ? context.member
        ? scriptMember(head)
        : scriptTop(head)
      : strategy === 'python'
        ? python(head, context.member)
        : strategy === 'go'
          ? go(head)
          : strategy === 'rust'
            ? rust(head, context.member)
            : cLike(head, context.member);
  if (context.member && context.owner && found.name && (found.kind === 'method' || found.kind === 'function')) {
    return { ...found, kind: 'method', name: `${context.owner}.${found.name}` };
  }
  if (context.member && found.kind === 'function') return { ...found, kind: 'method' };
  return found;
}

// ---- TypeScript / JavaScript ----

const SCRIPT_PREFIX = /^(?:export\s+(?:default\s+)?|declare\s+|abstract\s+|async\s+)+/;
const SCRIPT_MEMBER_MODIFIERS = /^(?:(?:public|private|protected|static|readonly|abstract|override|async|declare|accessor)\s+|(?:get|set)\s+(?=[#\w$[]))+/;
const ARROW_OR_FUNCTION = /=>|\bfunction\b/;

const DECORATORS = /^(?:@[\w.$]+(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*)+/;

function scriptTop(head: string): Declaration {
  head = head.replace(DECORATORS, '');
  if (/^import\b(?!\s*\()/.test(head) || /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\b/.test(head)) return { kind: 'block', name: 'imports', imports: true };
  if (/^(?:const|let|var)\s+[\w${}\s,:]+=\s*require\s*\(/.test(head)) return { kind: 'block', name: 'imports', imports: true };
  if (/^['"]use (?:strict|client|server)['"]/.test(head)) return BLOCK;
  const isDefault = /^export\s+default\b/.test(head);
  const rest = head.replace(SCRIPT_PREFIX, '');
  let m: RegExpExecArray | null;
  if ((m = /^function\b\s*\*?\s*([\w$]+)?/.exec(rest))) return { kind: 'function', name: m[1] ?? (isDefault ? 'default' : undefined) };
  if ((m = /^class\b\s*([\w$]+)?/.exec(rest))) return { kind: 'class', name: m[1] ?? (isDefault ? 'default' : undefined), container: 'members' };
  if ((m = /^interface\s+([\w$]+)/.exec(rest))) return { kind: 'interface', name: m[1] };
  if ((m = /^type\s+([\w$]+)/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^(?:const\s+)?enum\s+([\w$]+)/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^(?:namespace|module)\s+([\w$.]+)/.exec(rest))) return { kind: 'block', name: m[1], container: 'top' };
  if ((m = /^global\s*\{/.exec(rest))) return { kind: 'block', name: 'global', container: 'top' };
  if ((m = /^(?:const|let|var)\s+([\w$]+)/.exec(rest))) {
    const afterEquals = rest.slice(rest.indexOf('=') + 1);
    const isFunction = rest.includes('=') && /^\s*(?:async\b\s*)?(?:function\b|\(|[\w$]+\s*=>|<)/.test(afterEquals) && ARROW_OR_FUNCTION.test(afterEquals);
    return { kind: isFunction ? 'function' : 'block', name: m[1] };
  }
  if (isDefault) return { kind: 'block', name: 'default' };
  return BLOCK;
}

function scriptMember(head: string): Declaration {
  const rest = head.replace(DECORATORS, '').replace(SCRIPT_MEMBER_MODIFIERS, '').replace(/^\*\s*/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(#?[\w$]+|\[[^\]]+\])\s*[?!]?\s*(?:<[^>]*>)?\s*\(/.exec(rest))) return { kind: 'method', name: m[1] };
  if ((m = /^(#?[\w$]+)\s*[?!]?\s*(?::[^=]*)?=(.*)$/.exec(rest)) && ARROW_OR_FUNCTION.test(m[2]!)) return { kind: 'method', name: m[1] };
  if ((m = /^(#?[\w$]+)\s*[?!]?\s*[:=;]/.exec(rest))) return { kind: 'block', name: m[1] };
  return scriptTop(head);
}

// ---- Python ----

function python(head: string, member: boolean): Declaration {
  let m: RegExpExecArray | null;
  if ((m = /^(?:async\s+)?def\s+(\w+)/.exec(head))) return { kind: member ? 'method' : 'function', name: m[1] };
  if ((m = /^class\s+(\w+)/.exec(head))) return { kind: 'class', name: m[1], container: 'members' };
  if (/^(?:import|from)\s+\S/.test(head) && !member) return { kind: 'block', name: 'imports', imports: true };
  if ((m = /^(\w+)\s*(?::[^=]*)?=(?!=)/.exec(head))) return { kind: 'block', name: m[1] };
  return BLOCK;
}

// ---- Go ----

function go(head: string): Declaration {
  let m: RegExpExecArray | null;
  if (/^(?:package|import)\b/.test(head)) return { kind: 'block', name: 'imports', imports: true };
  if ((m = /^func\s*\(([^)]*)\)\s*([\w]+)/.exec(head))) {
    const receiver = /([\w]+)(?:\[[^\]]*\])?\s*$/.exec(m[1]!.trim())?.[1];
    return { kind: 'method', name: receiver ? `${receiver}.${m[2]}` : m[2] };
  }
  if ((m = /^func\s+([\w]+)/.exec(head))) return { kind: 'function', name: m[1] };
  if ((m = /^type\s+(\w+)(?:\[[^\]]*\])?\s+struct\b/.exec(head))) return { kind: 'class', name: m[1] };
  if ((m = /^type\s+(\w+)(?:\[[^\]]*\])?\s+interface\b/.exec(head))) return { kind: 'interface', name: m[1] };
  if ((m = /^type\s+(\w+)/.exec(head))) return { kind: 'type', name: m[1] };
  if ((m = /^(?:var|const)\s+(\w+)/.exec(head))) return { kind: 'block', name: m[1] };
  return BLOCK;
}

// ---- Rust ----

const RUST_PREFIX = /^(?:pub(?:\s*\([^)]*\))?\s+|(?:async|const|unsafe|default|extern(?:\s+"[^"]*")?)\s+(?=(?:async|const|unsafe|extern|fn|impl|trait)\b))+/;

function rust(head: string, member: boolean): Declaration {
  if (/^(?:use|extern\s+crate)\b/.test(head) || /^(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+\w+\s*;/.test(head)) {
    return { kind: 'block', name: 'imports', imports: true };
  }
  const rest = head.replace(RUST_PREFIX, '');
  let m: RegExpExecArray | null;
  if ((m = /^fn\s+(\w+)/.exec(rest))) return { kind: member ? 'method' : 'function', name: m[1] };
  if ((m = /^struct\s+(\w+)/.exec(rest))) return { kind: 'class', name: m[1] };
  if ((m = /^(?:enum|union)\s+(\w+)/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^trait\s+(\w+)/.exec(rest))) return { kind: 'interface', name: m[1], container: 'members' };
  if ((m = /^impl\b\s*(?:<[^{]*?>\s*)?(.*?)\s*(?:\bwhere\b|\{|$)/.exec(rest))) {
    // `impl Display for Point<T>` → Point: methods become Point.fmt
    const target = m[1]!.split(/\s+for\s+/).pop() ?? '';
    const name = /([\w]+)\s*(?:<.*)?$/.exec(target.trim())?.[1];
    return { kind: 'class', name, container: 'members' };
  }
  if ((m = /^mod\s+(\w+)/.exec(rest))) return { kind: 'block', name: m[1], container: 'top' };
  if ((m = /^type\s+(\w+)/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^(?:const|static)\s+(?:mut\s+)?(\w+)/.exec(rest))) return { kind: 'block', name: m[1] };
  if ((m = /^macro_rules!\s*(\w+)/.exec(rest))) return { kind: 'function', name: m[1] };
  return BLOCK;
}

// ---- Java, C#, Kotlin, Swift, Scala, Dart, PHP, C, C++ … ----

const C_MODIFIERS =
  /^(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|override|virtual|async|partial|readonly|unsafe|extern|inline|constexpr|export|data|inner|annotation|suspend|synchronized|native|default|fileprivate|mutating|lateinit|companion|volatile|transient|strictfp|operator|infix|tailrec|required|convenience|implicit|lazy|case|explicit|friend|noexcept)\s+)+/;
const NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'catch', 'new', 'else', 'do', 'foreach', 'using', 'lock', 'typeof', 'nameof', 'when', 'try', 'throw', 'delete', 'defined']);

function cLike(head: string, member: boolean): Declaration {
  if (/^(?:package|import|using\s+[\w.=\s]+;|#\s*(?:include|import)\b|use\s+[\w\\]|namespace\s+[\w.\\]+\s*;|require(?:_once)?\b|include(?:_once)?\b|<\?php\b)/.test(head)) {
    return { kind: 'block', name: 'imports', imports: true };
  }
  let rest = head
    .replace(/^(?:@[\w.$]+(?:\s*\([^)]*\))?\s+|\[[\w.:,\s()"=]+\]\s*)+/, '') // annotations / attributes on the same line
    .replace(/^template\s*<[^>]*>\s*/, '');
  rest = rest.replace(C_MODIFIERS, '');
  let m: RegExpExecArray | null;
  if ((m = /^#\s*define\s+(\w+)/.exec(rest))) return { kind: 'block', name: m[1] };
  if ((m = /^(?:namespace|module)\s+([\w.:]+)/.exec(rest))) return { kind: 'block', name: m[1], container: 'top' };
  if (/^extern\s+"C(?:\+\+)?"\s*\{/.test(head)) return { kind: 'block', container: 'top' };
  if ((m = /^(?:class|struct|object|record|actor|extension|impl)\s+([\w$.]+)\b(?!\s*\*?\s*[\w$]+\s*[(=;[])/.exec(rest))) return { kind: 'class', name: m[1], container: 'members' };
  if ((m = /^(?:interface|protocol|trait)\s+([\w$]+)/.exec(rest))) return { kind: 'interface', name: m[1], container: 'members' };
  if ((m = /^(?:enum|union)\s+(?:class\s+|struct\s+)?([\w$]+)/.exec(rest))) return { kind: 'type', name: m[1], container: 'members' };
  if ((m = /^typedef\b.*?(\w+)\s*(?:\[[^\]]*\])?\s*;\s*$/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^typealias\s+(\w+)/.exec(rest))) return { kind: 'type', name: m[1] };
  if ((m = /^(?:fun|func|def|function|fn)\s+(?:<[^>]*>\s*)?([\w$.]+)/.exec(rest))) return { kind: member ? 'method' : 'function', name: m[1] };
  if ((m = /^(?:val|var|let|const|property)\s+([\w$]+)\s*(?:[:=;]|$)/.exec(rest))) return { kind: 'block', name: m[1] };
  if (/^init\s*[({]/.test(rest)) return { kind: member ? 'method' : 'function', name: 'init' };
  // C, C++, Java, C#: `ReturnType name(params)` with a body (prototypes end with ';' and stay blocks).
  const call = /([~\w$:]+)\s*(?:<[^()]*>)?\s*\(/.exec(rest);
  const hasBody = !/;\s*$/.test(rest) || /\)\s*=>/.test(rest); // C# `string Hello() => …;` has one too
  if (call && !NOT_FUNCTIONS.has(call[1]!) && !/^\s*(?:=|return\b)/.test(rest) && !/=/.test(rest.slice(0, call.index)) && hasBody) {
    return { kind: member ? 'method' : 'function', name: call[1]!.replace(/^::/, '') };
  }
  return BLOCK;
}
