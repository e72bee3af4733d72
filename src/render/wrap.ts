/**
 * Wraps plain (possibly coloured) text to a width, for the renderers that write free lines (trace, compare): each line
 * longer than `width` columns breaks at spaces, its continuation lines indented two columns past the line's own
 * indentation. Colour escapes (SGR) take no columns; a word longer than the room is cut only when it holds none.
 */
const SGR = /\x1b\[[0-9;]*m/g;
const HAS_SGR = /\x1b\[/;

const visible = (s: string) => [...s.replace(SGR, '')].length;

export function wrapText(text: string, width: number): string {
  if (!(width > 0) || !Number.isFinite(width)) return text;
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}

function wrapLine(line: string, width: number): string[] {
  if (visible(line) <= width) return [line];
  const lead = /^ */.exec(line)![0];
  const hang = `${lead}  `;
  const room = (n: number) => Math.max(10, width - (n === 0 ? lead.length : hang.length));
  const words = line.slice(lead.length).split(' ');
  const out: string[] = [];
  let cur = '';
  const push = () => {
    out.push(`${out.length === 0 ? lead : hang}${cur}`);
    cur = '';
  };
  for (const w of words) {
    let word = w;
    while (!HAS_SGR.test(word) && visible(word) > room(out.length)) {
      if (cur) push();
      const r = room(out.length);
      const chars = [...word];
      cur = chars.slice(0, r).join('');
      push();
      word = chars.slice(r).join('');
    }
    if (!cur) cur = word;
    else if (visible(cur) + 1 + visible(word) <= room(out.length)) cur += ` ${word}`;
    else {
      push();
      cur = word;
    }
  }
  if (cur || out.length === 0) push();
  return out;
}
