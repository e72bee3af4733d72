// DOM helpers of the web pages. Text goes in through text nodes only (never innerHTML), so every string from a
// log, a store or a URL is shown as text; control characters are shown as escapes (\x07, \u202e) as in every other
// output (src/text/escape.ts).
import { escapeTerminal } from '../text/escape.js';

type Child = Node | string | number | null | undefined | false;

/** An element with attributes (strings, set as attributes or properties) and children (text or nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else e.setAttribute(k, v === true ? '' : escapeTerminal(String(v)));
  }
  append(e, ...children);
  return e;
}

export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(escapeTerminal(String(c))) : c);
  }
}

/** The page's main element, emptied. */
export function main(): HTMLElement {
  const m = document.getElementById('app')!;
  m.replaceChildren();
  return m;
}

/** A JSON API call; rejects with the service's `{error}` line. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const r = await fetch(path, init);
  const text = await r.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${r.status}: ${text.slice(0, 200)}`);
  }
  if (!r.ok) throw new Error((body as { error?: string })?.error ?? `HTTP ${r.status}`);
  return body as T;
}

/** A one-line error box. */
export function errorBox(message: string): HTMLElement {
  return el('p', { class: 'error', role: 'alert' }, message);
}

/** A two-column table of label → value. */
export function kv(rows: [string, Child][]): HTMLTableElement {
  return el('table', { class: 'kv' }, ...rows.map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))));
}
