/**
 * A small, safe expression language for user rules: numbers, strings, view columns, arithmetic, comparisons,
 * and/or/not, and a fixed set of functions. Expressions are parsed into a tree and interpreted; nothing is ever
 * passed to eval/Function, and names are resolved against a fixed list at compile time.
 *
 *   expr    := or
 *   or      := and (("or" | "||") and)*
 *   and     := not (("and" | "&&") not)*
 *   not     := ("not" | "!") not | cmp
 *   cmp     := add (("<" | "<=" | ">" | ">=" | "==" | "!=") add)?
 *   add     := mul (("+" | "-") mul)*
 *   mul     := unary (("*" | "/" | "%") unary)*
 *   unary   := "-" unary | primary
 *   primary := number | string | name | name "(" [expr ("," expr)*] ")" | "(" expr ")"
 */

import { UsageError } from '../../contract/errors.js';

export type Value = number | string | boolean;

/** A rule expression that cannot be compiled; `column` is 1-based. */
export class ExprError extends UsageError {
  constructor(message: string, readonly column: number) {
    super(message);
  }
}

/** Deepest nesting of parentheses, `not`, unary minus and calls an expression may have. */
export const MAX_EXPR_DEPTH = 100;

/** A lookup table without a prototype: only the names given are in it. */
export function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** Own-property lookup in a table: never finds `constructor`, `__proto__` or anything else from a prototype. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

type Node =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'var'; name: string }
  | { k: 'call'; fn: string; args: Node[]; col: number }
  | { k: 'un'; op: '-' | 'not'; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node };

interface Token {
  t: 'num' | 'str' | 'id' | 'op' | 'end';
  v: string;
  col: number;
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const col = i + 1;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ExprError(`bad number`, col);
      out.push({ t: 'num', v: m[0], col });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0], col });
      i += m[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== ch) {
        if (src[j] === '\\' && j + 1 < src.length) {
          s += src[j + 1];
          j += 2;
        } else s += src[j++];
      }
      if (j >= src.length) throw new ExprError('unterminated string', col);
      out.push({ t: 'str', v: s, col });
      i = j + 1;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['<=', '>=', '==', '!=', '&&', '||'].includes(two)) {
      out.push({ t: 'op', v: two, col });
      i += 2;
      continue;
    }
    if ('+-*/%<>()!,'.includes(ch)) {
      out.push({ t: 'op', v: ch, col });
      i++;
      continue;
    }
    if (ch === '=') throw new ExprError(`"=" is not an operator (use "==")`, col);
    throw new ExprError(`unexpected character "${ch}"`, col);
  }
  out.push({ t: 'end', v: '', col: src.length + 1 });
  return out;
}

const FUNCTIONS = table<{ arity: [number, number]; fn: (...a: Value[]) => Value }>({
  min: { arity: [1, 16], fn: (...a) => Math.min(...a.map(Number)) },
  max: { arity: [1, 16], fn: (...a) => Math.max(...a.map(Number)) },
  abs: { arity: [1, 1], fn: (a) => Math.abs(Number(a)) },
  sqrt: { arity: [1, 1], fn: (a) => Math.sqrt(Number(a)) },
  log10: { arity: [1, 1], fn: (a) => Math.log10(Number(a)) },
  contains: { arity: [2, 2], fn: (a, b) => String(a).includes(String(b)) },
  startswith: { arity: [2, 2], fn: (a, b) => String(a).startsWith(String(b)) },
  endswith: { arity: [2, 2], fn: (a, b) => String(a).endsWith(String(b)) },
});

export const FUNCTION_NAMES = Object.keys(FUNCTIONS);

class Parser {
  private p = 0;
  private depth = 0;
  constructor(private readonly toks: Token[], private readonly names: ReadonlySet<string>) {}

  private peek(): Token {
    return this.toks[this.p];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return (t.t === 'op' && t.v === v) || (t.t === 'id' && t.v === v);
  }
  private expect(v: string): void {
    const t = this.peek();
    if (!(t.t === 'op' && t.v === v)) throw new ExprError(`expected "${v}" but found ${describe(t)}`, t.col);
    this.p++;
  }

  parse(): Node {
    const n = this.or();
    const t = this.peek();
    if (t.t !== 'end') throw new ExprError(`unexpected ${describe(t)}`, t.col);
    return n;
  }
  private or(): Node {
    let a = this.and();
    while (this.isOp('or') || this.isOp('||')) {
      this.p++;
      a = { k: 'bin', op: 'or', a, b: this.and() };
    }
    return a;
  }
  private and(): Node {
    let a = this.not();
    while (this.isOp('and') || this.isOp('&&')) {
      this.p++;
      a = { k: 'bin', op: 'and', a, b: this.not() };
    }
    return a;
  }
  /** Parses `inner` one nesting level deeper; the recursion is capped so no expression can exhaust the stack. */
  private nested<T>(col: number, inner: () => T): T {
    if (++this.depth > MAX_EXPR_DEPTH) throw new ExprError(`expression nested more than ${MAX_EXPR_DEPTH} levels deep`, col);
    try {
      return inner();
    } finally {
      this.depth--;
    }
  }
  private not(): Node {
    if (this.isOp('not') || this.isOp('!')) {
      const col = this.peek().col;
      this.p++;
      return { k: 'un', op: 'not', a: this.nested(col, () => this.not()) };
    }
    return this.cmp();
  }
  private cmp(): Node {
    const a = this.add();
    const t = this.peek();
    if (t.t === 'op' && ['<', '<=', '>', '>=', '==', '!='].includes(t.v)) {
      this.p++;
      return { k: 'bin', op: t.v, a, b: this.add() };
    }
    return a;
  }
  private add(): Node {
    let a = this.mul();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '+' || t.v === '-')) {
        this.p++;
        a = { k: 'bin', op: t.v, a, b: this.mul() };
      } else return a;
    }
  }
  private mul(): Node {
    let a = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '*' || t.v === '/' || t.v === '%')) {
        this.p++;
        a = { k: 'bin', op: t.v, a, b: this.unary() };
      } else return a;
    }
  }
  private unary(): Node {
    if (this.isOp('-')) {
      const col = this.peek().col;
      this.p++;
      return { k: 'un', op: '-', a: this.nested(col, () => this.unary()) };
    }
    return this.primary();
  }
  private primary(): Node {
    const t = this.peek();
    if (t.t === 'num') {
      this.p++;
      return { k: 'num', v: Number(t.v) };
    }
    if (t.t === 'str') {
      this.p++;
      return { k: 'str', v: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      this.p++;
      const e = this.nested(t.col, () => this.or());
      this.expect(')');
      return e;
    }
    if (t.t === 'id') {
      if (['and', 'or', 'not'].includes(t.v)) throw new ExprError(`unexpected "${t.v}"`, t.col);
      this.p++;
      if (t.v === 'true' || t.v === 'false') return { k: 'num', v: t.v === 'true' ? 1 : 0 };
      if (this.peek().t === 'op' && this.peek().v === '(') {
        const f = own(FUNCTIONS, t.v);
        if (!f) throw new ExprError(`unknown function "${t.v}" (known: ${FUNCTION_NAMES.join(', ')})`, t.col);
        this.p++;
        const args: Node[] = [];
        if (!(this.peek().t === 'op' && this.peek().v === ')')) {
          args.push(this.nested(t.col, () => this.or()));
          while (this.peek().t === 'op' && this.peek().v === ',') {
            this.p++;
            args.push(this.nested(t.col, () => this.or()));
          }
        }
        this.expect(')');
        if (args.length < f.arity[0] || args.length > f.arity[1]) {
          throw new ExprError(`${t.v}() takes ${f.arity[0] === f.arity[1] ? f.arity[0] : `${f.arity[0]} to ${f.arity[1]}`} argument(s), got ${args.length}`, t.col);
        }
        return { k: 'call', fn: t.v, args, col: t.col };
      }
      if (!this.names.has(t.v)) throw new ExprError(`unknown name "${t.v}"`, t.col);
      return { k: 'var', name: t.v };
    }
    throw new ExprError(`unexpected ${describe(t)}`, t.col);
  }
}

function describe(t: Token): string {
  return t.t === 'end' ? 'end of expression' : `"${t.v}"`;
}

export type Env = (name: string) => Value;

/** A compiled expression. */
export interface Expr {
  source: string;
  eval(env: Env): Value;
}

/** Compiles `src`; names must be in `names`. Throws ExprError with a 1-based column. */
export function compileExpr(src: string, names: ReadonlySet<string>): Expr {
  if (typeof src !== 'string' || src.trim() === '') throw new ExprError('empty expression', 1);
  if (src.length > 4000) throw new ExprError('expression longer than 4000 characters', 1);
  const ast = new Parser(tokenize(src), names).parse();
  return { source: src, eval: (env) => evalNode(ast, env) };
}

export function truthy(v: Value): boolean {
  return typeof v === 'string' ? v.length > 0 : typeof v === 'boolean' ? v : v !== 0 && !Number.isNaN(v);
}

function evalNode(n: Node, env: Env): Value {
  switch (n.k) {
    case 'num':
    case 'str':
      return n.v;
    case 'var':
      return env(n.name);
    case 'call':
      return own(FUNCTIONS, n.fn)!.fn(...n.args.map((a) => evalNode(a, env)));
    case 'un': {
      const a = evalNode(n.a, env);
      return n.op === 'not' ? !truthy(a) : -Number(a);
    }
    case 'bin': {
      if (n.op === 'and') return truthy(evalNode(n.a, env)) && truthy(evalNode(n.b, env));
      if (n.op === 'or') return truthy(evalNode(n.a, env)) || truthy(evalNode(n.b, env));
      const a = evalNode(n.a, env);
      const b = evalNode(n.b, env);
      switch (n.op) {
        case '+':
          return typeof a === 'string' || typeof b === 'string' ? String(a) + String(b) : Number(a) + Number(b);
        case '-':
          return Number(a) - Number(b);
        case '*':
          return Number(a) * Number(b);
        case '/':
          return Number(b) === 0 ? 0 : Number(a) / Number(b);
        case '%':
          return Number(b) === 0 ? 0 : Number(a) % Number(b);
        case '==':
          return typeof a === 'string' || typeof b === 'string' ? String(a) === String(b) : Number(a) === Number(b);
        case '!=':
          return typeof a === 'string' || typeof b === 'string' ? String(a) !== String(b) : Number(a) !== Number(b);
        case '<':
          return typeof a === 'string' && typeof b === 'string' ? a < b : Number(a) < Number(b);
        case '<=':
          return typeof a === 'string' && typeof b === 'string' ? a <= b : Number(a) <= Number(b);
        case '>':
          return typeof a === 'string' && typeof b === 'string' ? a > b : Number(a) > Number(b);
        case '>=':
          return typeof a === 'string' && typeof b === 'string' ? a >= b : Number(a) >= Number(b);
      }
    }
  }
  return 0;
}
