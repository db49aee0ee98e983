// The live journal: filters, then only the rows in view are rendered, so ten thousand entries
// scroll as lightly as ten. Newest first.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { clockTime, rowMessage, searchText, sourceOf, statusClass, usageTotal } from './format.js';
import { html } from './html.js';

/** Two lines: what was asked (method, path, status), then when, what answered and the message. */
export const ROW_HEIGHT = 44;
const OVERSCAN = 8;

const STATUS_FILTERS = {
  '': () => true,
  '2xx': (s) => s >= 200 && s < 300,
  '4xx': (s) => s >= 400 && s < 500,
  '5xx': (s) => s >= 500,
  errors: (s) => s >= 400 || s === 0,
};

/** Derived per entry once: the row's message and the filter's haystack. */
const derived = new WeakMap();
function derive(entry) {
  let found = derived.get(entry);
  if (!found) {
    // A request in flight has no body yet: its start event brings the model and the message's start.
    const message = entry.sent !== undefined ? entry.message ?? '' : rowMessage(entry);
    found = { message: message.slice(0, 200), search: searchText(entry) };
    derived.set(entry, found);
  }
  return found;
}

/** Rows newest first: the requests in flight (their session filtered), then the journal's that pass every filter. */
export function useFilteredJournal(entries, inFlight, filters) {
  return useMemo(() => {
    const text = filters.text.trim().toLowerCase();
    const status = STATUS_FILTERS[filters.status];
    const out = [];
    for (let i = inFlight.length - 1; i >= 0; i--) if (!filters.session || inFlight[i].session === filters.session) out.push(inFlight[i]);
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (filters.session && entry.session !== filters.session) continue;
      if (filters.style && entry.style !== filters.style) continue;
      if (!status(entry.status)) continue;
      if (text && !derive(entry).search.includes(text)) continue;
      out.push(entry);
    }
    return out;
  }, [entries, inFlight, filters]);
}

function Options({ label, values }) {
  return html`<option value="">${label}</option>${values.map((value) => html`<option value=${value}>${value}</option>`)}`;
}

export function Filters({ entries, filters, setFilters, rows, onClear, filterRef }) {
  const sessions = useMemo(() => [...new Set(entries.map((entry) => entry.session))].sort(), [entries]);
  const styles = useMemo(() => [...new Set(entries.map((entry) => entry.style).filter(Boolean))].sort(), [entries]);
  const total = useMemo(() => usageTotal(rows), [rows]);
  const set = (key) => (event) => setFilters({ ...filters, [key]: event.currentTarget.value });
  return html`<div class="filters">
    <input ref=${filterRef} class="text-filter" type="search" placeholder="Filter  ( / )" value=${filters.text} onInput=${set('text')}
      onKeyDown=${(event) => event.key === 'Escape' && event.currentTarget.blur()} aria-label="Filter the journal" />
    <select value=${filters.session} onChange=${set('session')} aria-label="Session"><${Options} label="all sessions" values=${sessions} /></select>
    <select value=${filters.style} onChange=${set('style')} aria-label="Style"><${Options} label="all styles" values=${styles} /></select>
    <select value=${filters.status} onChange=${set('status')} aria-label="Status">
      <${Options} label="any status" values=${Object.keys(STATUS_FILTERS).filter(Boolean)} />
    </select>
    <span class="count">${rows.length} of ${entries.length}</span>
    <span class="usage-total" title="What the requests shown used and cost (GET /__admin/usage)">${total}</span>
    <button class="quiet" onClick=${onClear} title="DELETE /__admin/requests">clear</button>
  </div>`;
}

/** How far a request in flight has gone, in percent: its stream's events sent, or a sliver until it streams. */
function filled(entry) {
  return entry.total > 0 ? Math.round((100 * entry.sent) / entry.total) : 0;
}

function Row({ entry, top, selected, onSelect }) {
  const { message } = derive(entry);
  const flying = entry.sent !== undefined;
  const percent = flying ? filled(entry) : 100;
  const fill = flying ? `;background:linear-gradient(to right, var(--select) ${Math.max(3, percent)}%, transparent 0)` : '';
  return html`<div class=${`row${selected ? ' selected' : ''}${flying ? ' in-flight' : ''}`} style=${`top:${top}px${fill}`} data-id=${entry.id} onClick=${() => onSelect(entry.id)}>
    <span class="method">${entry.method}</span>
    <span class="path">${entry.path}</span>
    <span class="time">${clockTime(entry.time)}</span>
    <span class="said">${entry.session !== 'default' ? html`<span class="session">${entry.session}</span>` : ''}<span class="source">${flying ? `in flight${entry.model ? ` · ${entry.model}` : ''}` : sourceOf(entry)}</span>
      <span class="message" title=${message}>${message}</span></span>
    ${flying
      ? html`<span class="status s0" role="progressbar" aria-label="in flight" aria-valuenow=${percent}>…</span>`
      : html`<span class=${`status ${statusClass(entry.status)}`}>${entry.status}</span>`}
  </div>`;
}

/** What an empty list says: until the journal's first page answers, the mock may well hold requests. */
function Empty({ loaded }) {
  return loaded
    ? html`<p class="empty">No requests yet. Point a client at this mock and they appear here as they arrive.</p>`
    : html`<p class="empty loading" role="status">Loading the journal…</p>`;
}

export function JournalList({ rows, loaded, selectedId, onSelect }) {
  const box = useRef(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  useLayoutEffect(() => {
    const element = box.current;
    const observer = new ResizeObserver(() => setView({ top: element.scrollTop, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // New entries arrive on top: someone reading further down keeps the rows they were reading.
  const firstId = useRef(null);
  useLayoutEffect(() => {
    const element = box.current;
    const previous = firstId.current;
    firstId.current = rows[0]?.id ?? null;
    if (!element || element.scrollTop === 0 || previous === null) return;
    const moved = rows.findIndex((entry) => entry.id === previous);
    if (moved > 0) element.scrollTop += moved * ROW_HEIGHT;
  }, [rows]);
  // Keeps the selected row in view when the keyboard moves it.
  useEffect(() => {
    const index = rows.findIndex((entry) => entry.id === selectedId);
    const element = box.current;
    if (index < 0 || !element) return;
    const top = index * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, [selectedId]);
  const first = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);
  return html`<div class="journal" ref=${box} tabindex="-1" onScroll=${(event) => setView({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}>
    <div class="spacer" style=${`height:${rows.length * ROW_HEIGHT}px`}>
      ${visible.map((entry, i) => html`<${Row} key=${entry.id} entry=${entry} top=${(first + i) * ROW_HEIGHT} selected=${entry.id === selectedId} onSelect=${onSelect} />`)}
    </div>
    ${rows.length === 0 ? html`<${Empty} loaded=${loaded} />` : ''}
  </div>`;
}
