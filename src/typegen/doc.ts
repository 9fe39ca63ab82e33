/**
 * A small pretty-printing document (Wadler's "prettier printer", the algorithm Prettier uses):
 * text, line breaks that a group prints as a space or nothing when it fits the line, indentation
 * and groups. The generated type files are laid out with it at Prettier's defaults (80 columns,
 * two-space indent), so they come out as Strapi's generator writes them after formatting.
 */
export type Doc = string | readonly Doc[] | Line | Indent | Group | IfBreak;

interface Line {
  readonly kind: 'line';
  /** Printed as nothing (soft) or a space when its group is flat; hard lines always break. */
  readonly flat: '' | ' ' | null;
}
interface Indent {
  readonly kind: 'indent';
  readonly contents: Doc;
}
interface Group {
  readonly kind: 'group';
  readonly contents: Doc;
  /** Set when the group must break (it holds a hard line or a group that must). */
  readonly broken: boolean;
}
interface IfBreak {
  readonly kind: 'ifBreak';
  readonly broken: Doc;
  readonly flat: Doc;
}

/** A space when the enclosing group fits on the line, else a line break. */
export const line: Doc = { kind: 'line', flat: ' ' };
/** Nothing when the enclosing group fits on the line, else a line break. */
export const softline: Doc = { kind: 'line', flat: '' };
/** Always a line break (and every enclosing group breaks). */
export const hardline: Doc = { kind: 'line', flat: null };

/** Indents the lines that `contents` breaks by two spaces. */
export function indent(contents: Doc): Doc {
  return { kind: 'indent', contents };
}

/** `broken` when the enclosing group breaks, else `flat`. */
export function ifBreak(broken: Doc, flat: Doc = ''): Doc {
  return { kind: 'ifBreak', broken, flat };
}

/** A group: printed flat when it fits the line; `shouldBreak` (or a hard line inside) breaks it. */
export function group(contents: Doc, shouldBreak = false): Doc {
  return { kind: 'group', contents, broken: shouldBreak || mustBreak(contents) };
}

/** `docs` with `separator` between each two. */
export function join(separator: Doc, docs: readonly Doc[]): Doc {
  return docs.flatMap((doc, index) => (index === 0 ? [doc] : [separator, doc]));
}

function mustBreak(doc: Doc): boolean {
  if (typeof doc === 'string') return false;
  if (Array.isArray(doc)) return doc.some(mustBreak);
  const node = doc as Line | Indent | Group | IfBreak;
  if (node.kind === 'line') return node.flat === null;
  if (node.kind === 'group') return node.broken;
  if (node.kind === 'indent') return mustBreak(node.contents);
  return mustBreak(node.broken);
}

type Mode = 'flat' | 'break';
type Command = readonly [indentation: number, mode: Mode, doc: Doc];

/** Lays `doc` out in `width` columns; trailing spaces before a line break are dropped. */
export function printDoc(doc: Doc, width = 80): string {
  let out = '';
  let column = 0;
  const stack: Command[] = [[0, 'break', doc]];
  while (stack.length > 0) {
    const [ind, mode, current] = stack.pop()!;
    if (typeof current === 'string') {
      out += current;
      column += current.length;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([ind, mode, current[i] as Doc]);
    } else {
      const node = current as Line | Indent | Group | IfBreak;
      if (node.kind === 'indent') stack.push([ind + 2, mode, node.contents]);
      else if (node.kind === 'ifBreak') stack.push([ind, mode, mode === 'break' ? node.broken : node.flat]);
      else if (node.kind === 'group') {
        const flat = !node.broken && (mode === 'flat' || fits([ind, 'flat', node.contents], stack, width - column));
        stack.push([ind, flat ? 'flat' : 'break', node.contents]);
      } else if (mode === 'flat' && node.flat !== null) {
        out += node.flat;
        column += node.flat.length;
      } else {
        out = out.replace(/[ \t]+$/, '') + '\n' + ' '.repeat(ind);
        column = ind;
      }
    }
  }
  return out;
}

/** Whether `next` printed flat, then what follows up to the next line break, fits in `room`. */
function fits(next: Command, rest: readonly Command[], room: number): boolean {
  const queue: Command[] = [next];
  let restIndex = rest.length;
  while (room >= 0) {
    if (queue.length === 0) {
      if (restIndex === 0) return true;
      queue.push(rest[--restIndex]!);
      continue;
    }
    const [ind, mode, current] = queue.pop()!;
    if (typeof current === 'string') room -= current.length;
    else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) queue.push([ind, mode, current[i] as Doc]);
    } else {
      const node = current as Line | Indent | Group | IfBreak;
      if (node.kind === 'indent') queue.push([ind, mode, node.contents]);
      else if (node.kind === 'ifBreak') queue.push([ind, mode, mode === 'break' ? node.broken : node.flat]);
      else if (node.kind === 'group') queue.push([ind, node.broken ? 'break' : mode, node.contents]);
      else if (mode === 'break' || node.flat === null) return true;
      else room -= node.flat.length;
    }
  }
  return false;
}
