import type { Comparison } from '../contract/index.js';
import { compareTables, notes, verdicts } from '../render/compare.js';
import { api, el, errorBox, main } from './dom.js';

/**
 * The comparison page (`/compare?base=HASH|median&other=HASH`): two stored jobs side by side, as `iolens compare`
 * prints them (the same tables, from the comparison document the service answers).
 */
export async function comparePage(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const base = q.get('base') ?? '', other = q.get('other') ?? '';
  const m = main();
  m.append(el('p', { class: 'muted' }, 'Comparing…'));
  let c: Comparison;
  try {
    c = await api<Comparison>(`/api/compare?base=${encodeURIComponent(base)}&other=${encodeURIComponent(other)}`);
  } catch (err) {
    main().append(el('h1', {}, 'Compare'), errorBox((err as Error).message));
    return;
  }
  const page = main();
  const run = c.others[0]?.run ?? c.base;
  page.append(
    el('h1', {}, `Compare ${run.name}`),
    el('p', { class: 'muted' }, 'against ', el('a', { href: `/jobs/${other}` }, 'this job'), c.others.length ? [' · base ', base === 'median' ? "its application's median run" : el('a', { href: `/jobs/${base}` }, 'the other job')] : null, ' · ', el('a', { href: `/api/compare?base=${encodeURIComponent(base)}&other=${encodeURIComponent(other)}` }, 'JSON')),
  );
  for (const v of verdicts(c)) page.append(el('p', { class: 'verdict' }, v));
  if (c.history) {
    for (const mt of c.history.metrics) {
      const max = Math.max(1, ...mt.bins.map((b) => b.count));
      page.append(
        el(
          'figure',
          { class: 'history' },
          el('figcaption', {}, `${mt.metric}: ${mt.runs} runs of ${c.history.app}, log-scale bins; this run's bin marked`),
          el(
            'div',
            { class: 'bins' },
            ...mt.bins.map((b) => {
              const mine = mt.value !== null && mt.value >= b.low && (mt.value < b.high || b === mt.bins[mt.bins.length - 1]);
              const bar = el('span', { class: mine ? 'bin mine' : 'bin', title: `${b.low.toPrecision(3)}–${b.high.toPrecision(3)}: ${b.count}${mine ? ' (this run)' : ''}` });
              // (a property, not a style attribute: the service's CSP allows no inline styles)
              bar.style.height = `${Math.round((60 * b.count) / max) + 1}px`;
              return bar;
            }),
          ),
        ),
      );
    }
  }
  for (const t of compareTables(c)) {
    page.append(el('h2', {}, t.title));
    if (!t.rows.length) {
      page.append(el('p', { class: 'muted' }, '(none)'));
      continue;
    }
    page.append(el('table', { class: 'compare' }, el('thead', {}, el('tr', {}, ...t.header.map((h) => el('th', {}, h)))), el('tbody', {}, ...t.rows.map((r) => el('tr', {}, ...r.map((x) => el('td', {}, x)))))));
  }
  for (const n of notes(c)) page.append(el('p', { class: 'note' }, n));
}
