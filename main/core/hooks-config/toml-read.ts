/**
 * A small TOML reader, enough to read Codex's `config.toml` (where Codex keeps which hooks the
 * user trusted, issue 13) without adding a dependency. It reads every TOML 1.0 construct —
 * tables, arrays of tables, dotted and quoted keys, the four kinds of strings, arrays and inline
 * tables over several lines — so that the rest of a user's file never makes us misread it;
 * numbers, dates and times are kept as their text (nothing here needs their value).
 * Read-only: Kioku never writes this file.
 */
export class TomlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'TomlSyntaxError';
  }
}

type Table = Record<string, unknown>;

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

const isTable = (value: unknown): value is Table => value !== null && typeof value === 'object' && !Array.isArray(value);

class Reader {
  private i = 0;
  constructor(private readonly text: string) {}

  private line(): number {
    let n = 1;
    for (let k = 0; k < this.i && k < this.text.length; k++) if (this.text[k] === '\n') n++;
    return n;
  }

  private fail(message: string): never {
    throw new TomlSyntaxError(message, this.line());
  }

  private peek(offset = 0): string {
    return this.text[this.i + offset] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }

  private skipComment(): void {
    if (this.peek() !== '#') return;
    while (this.i < this.text.length && this.peek() !== '\n') this.i++;
  }

  /** Spaces, comments and newlines: what may stand between array items and inline-table entries. */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (this.peek() === '\n') this.i++;
      else if (this.startsWith('\r\n')) this.i += 2;
      else return;
    }
  }

  /** After a key/value pair or a header: only spaces and a comment until the end of the line. */
  private endOfLine(): void {
    this.skipSpaces();
    this.skipComment();
    if (this.i >= this.text.length) return;
    if (this.peek() === '\n') this.i++;
    else if (this.startsWith('\r\n')) this.i += 2;
    else this.fail(`unexpected "${this.peek()}" after a value`);
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const start = this.i;
        while (BARE_KEY.test(this.peek())) this.i++;
        if (this.i === start) this.fail(c ? `a key cannot start with "${c}"` : 'a key is missing');
        parts.push(this.text.slice(start, this.i));
      }
      this.skipSpaces();
      if (this.peek() !== '.') return parts;
      this.i++;
    }
  }

  private basicString(): string {
    this.i++; // "
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('a string is not closed on its line');
      this.i++;
      if (c === '"') return out;
      out += c === '\\' ? this.escape() : c;
    }
  }

  private escape(): string {
    const c = this.peek();
    this.i++;
    if (c in ESCAPES) return ESCAPES[c]!;
    const digits = c === 'u' ? 4 : c === 'U' ? 8 : c === 'x' ? 2 : 0;
    if (digits === 0) this.fail(`unknown escape "\\${c}"`);
    const hex = this.text.slice(this.i, this.i + digits);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== digits) this.fail(`bad escape "\\${c}${hex}"`);
    this.i += digits;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff) this.fail(`bad escape "\\${c}${hex}"`);
    return String.fromCodePoint(code);
  }

  private literalString(): string {
    this.i++; // '
    const end = this.text.indexOf("'", this.i);
    const newline = this.text.indexOf('\n', this.i);
    if (end < 0 || (newline >= 0 && newline < end)) this.fail('a string is not closed on its line');
    const value = this.text.slice(this.i, end);
    this.i = end + 1;
    return value;
  }

  /** `"""…"""` or `'''…'''`: a newline right after the opening is dropped; up to two quotes may end it. */
  private multilineString(quote: '"' | "'"): string {
    const delimiter = quote.repeat(3);
    this.i += 3;
    if (this.peek() === '\n') this.i++;
    else if (this.startsWith('\r\n')) this.i += 2;
    let out = '';
    for (;;) {
      if (this.i >= this.text.length) this.fail(`a ${delimiter} string is never closed`);
      if (this.startsWith(delimiter)) {
        let extra = 0;
        while (extra < 2 && this.peek(3 + extra) === quote) extra++;
        out += quote.repeat(extra);
        this.i += 3 + extra;
        return out;
      }
      const c = this.peek();
      this.i++;
      if (quote === '"' && c === '\\') {
        // A backslash at the end of a line joins it to the next, without the blanks between.
        const rest = /^[ \t]*\r?\n[\s]*/.exec(this.text.slice(this.i));
        if (rest) this.i += rest[0].length;
        else out += this.escape();
      } else out += c;
    }
  }

  private value(): unknown {
    const c = this.peek();
    if (this.startsWith('"""')) return this.multilineString('"');
    if (this.startsWith("'''")) return this.multilineString("'");
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    // true, false, a number, a date or a time: kept as text up to what ends a value.
    const match = /^[^\s,\]}#]+(?:[ T][0-9:.+\-Zz]+)?/.exec(this.text.slice(this.i));
    if (!match) this.fail(c ? `a value cannot start with "${c}"` : 'a value is missing');
    const word = match[0];
    if (!/^[A-Za-z0-9_+\-.:]+(?:[ T][0-9:.+\-Zz]+)?$/.test(word)) this.fail(`"${word}" is not a TOML value`);
    this.i += word.length;
    if (word === 'true') return true;
    if (word === 'false') return false;
    return word;
  }

  private array(): unknown[] {
    this.i++; // [
    const items: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === ']') {
        this.i++;
        return items;
      }
      items.push(this.value());
      this.skipBlank();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') this.fail('an array is not closed');
    }
  }

  private inlineTable(): Table {
    this.i++; // {
    const table: Table = {};
    for (;;) {
      this.skipBlank();
      if (this.peek() === '}') {
        this.i++;
        return table;
      }
      const key = this.key();
      if (this.peek() !== '=') this.fail('"=" expected after a key');
      this.i++;
      this.skipSpaces();
      assign(table, key, this.value(), (m) => this.fail(m));
      this.skipBlank();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== '}') this.fail('an inline table is not closed');
    }
  }

  read(): Table {
    const root: Table = {};
    let current = root;
    this.skipBlank();
    while (this.i < this.text.length) {
      if (this.peek() === '[') {
        const many = this.startsWith('[[');
        this.i += many ? 2 : 1;
        const key = this.key();
        if (!this.startsWith(many ? ']]' : ']')) this.fail('a table header is not closed');
        this.i += many ? 2 : 1;
        current = many ? appendTable(root, key, (m) => this.fail(m)) : openTable(root, key, (m) => this.fail(m));
      } else {
        const key = this.key();
        if (this.peek() !== '=') this.fail('"=" expected after a key');
        this.i++;
        this.skipSpaces();
        assign(current, key, this.value(), (m) => this.fail(m));
      }
      this.endOfLine();
      this.skipBlank();
    }
    return root;
  }
}

/** The table at a dotted path, created on the way; an array of tables stands for its last one. */
function walk(root: Table, path: readonly string[], fail: (message: string) => never): Table {
  let table = root;
  for (const part of path) {
    const next = table[part];
    if (next === undefined) table = table[part] = {} as Table;
    else if (isTable(next)) table = next;
    else if (Array.isArray(next) && isTable(next[next.length - 1])) table = next[next.length - 1] as Table;
    else fail(`"${path.join('.')}" is a value, not a table`);
  }
  return table;
}

function openTable(root: Table, path: readonly string[], fail: (message: string) => never): Table {
  return walk(root, path, fail);
}

function appendTable(root: Table, path: readonly string[], fail: (message: string) => never): Table {
  const parent = walk(root, path.slice(0, -1), fail);
  const name = path[path.length - 1]!;
  const list = parent[name] ?? (parent[name] = []);
  if (!Array.isArray(list)) fail(`"${path.join('.')}" is not an array of tables`);
  const table: Table = {};
  list.push(table);
  return table;
}

function assign(table: Table, key: readonly string[], value: unknown, fail: (message: string) => never): void {
  const parent = walk(table, key.slice(0, -1), fail);
  const name = key[key.length - 1]!;
  if (name in parent) fail(`"${key.join('.')}" is defined twice`);
  parent[name] = value;
}

/** Parse TOML text into plain objects; throws TomlSyntaxError (with the line) when it is not TOML. */
export function parseToml(text: string): Record<string, unknown> {
  return new Reader(text.replace(/^\uFEFF/, '')).read();
}
