// The inspector: the live journal on the left, the chosen entry in the middle, the controls
// (health, clock, scenarios, tasks, drift) at the side. Keyboard: `/` filters, ↑ ↓ move.
import { render } from 'preact';
import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { hasToken, setToken, settings } from './api.js';
import { Detail } from './detail.js';
import { html } from './html.js';
import { Filters, JournalList, useFilteredJournal } from './journal.js';
import { Clock, Files, Health, Scenarios, Tasks, dismissNotice } from './panels.js';
import { clearJournal, connect, listen, state, update } from './store.js';
import { Drift } from './drift.js';

function TokenPrompt() {
  const [value, setValue] = useState('');
  const submit = (event) => {
    event.preventDefault();
    setToken(value);
    update({ connection: 'connecting', notice: '' });
    connect();
  };
  return html`<div class="overlay"><form class="dialog token" onSubmit=${submit}>
    <h3>Admin token</h3>
    <p>This mock was started with <code>--admin-token</code>. Enter it once; the page keeps it for this tab.</p>
    <input type="password" name="token" value=${value} onInput=${(event) => setValue(event.currentTarget.value)} autofocus />
    ${state.notice ? html`<p class="problem">${state.notice}</p>` : ''}
    <div class="actions"><button type="submit">Connect</button></div>
  </form></div>`;
}

function useKeyboard(rows, selectedId, select, filterRef) {
  useEffect(() => {
    const onKey = (event) => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
      if (event.key === '/' && !typing) {
        event.preventDefault();
        filterRef.current?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      if (typing && event.target !== filterRef.current) return;
      event.preventDefault();
      const index = rows.findIndex((entry) => entry.id === selectedId);
      const next = event.key === 'ArrowDown' ? Math.min(rows.length - 1, index + 1) : Math.max(0, index - 1);
      if (rows[next]) select(rows[next].id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rows, selectedId]);
}

function App() {
  const [, rerender] = useReducer((n) => n + 1, 0);
  useEffect(() => listen(rerender), []);
  const [filters, setFilters] = useState({ text: '', session: '', style: '', status: '' });
  const [selectedId, select] = useState(null);
  const filterRef = useRef(null);
  // Below 1400 px the side panels start folded, so the journal and the detail have the width.
  const [folded, setFolded] = useState(() => window.innerWidth < 1400);
  const rows = useFilteredJournal(state.entries, state.inFlight, filters);
  const selected = useMemo(() => state.entries.find((entry) => entry.id === selectedId) ?? null, [state.entries, selectedId]);
  useKeyboard(rows, selectedId, select, filterRef);
  return html`<div class="page">
    <header class="top">
      <h1>model-gateway-mock <span>inspector</span></h1>
      <span class=${`connection ${state.connection}`} title="the event stream">${state.connection}</span>
      <${Health} health=${state.health} />
      <${Clock} clock=${state.clock} />
    </header>
    ${state.notice ? html`<div class="notice" onClick=${dismissNotice}>${state.notice} <small>(click to dismiss)</small></div>` : ''}
    <main>
      <section class="journal-pane">
        <${Filters} entries=${state.entries} filters=${filters} setFilters=${setFilters} rows=${rows} onClear=${clearJournal} filterRef=${filterRef} />
        <${JournalList} rows=${rows} loaded=${state.journalLoaded} selectedId=${selectedId} onSelect=${select} />
      </section>
      <${Detail} key=${selectedId} entry=${selected} />
      <aside class=${folded ? 'folded' : ''}>
        <button class="fold" aria-expanded=${!folded} onClick=${() => setFolded(!folded)}>${folded ? 'scenarios, tasks, files ‹' : 'fold ›'}</button>
        <${Scenarios} scenarios=${state.scenarios} />
        <${Tasks} tasks=${state.tasks} clock=${state.clock} />
        <${Drift} drift=${state.drift} onSelect=${select} />
        <${Files} health=${state.health} />
      </aside>
    </main>
    ${state.connection === 'needs-token' ? html`<${TokenPrompt} />` : ''}
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));

settings().then(({ token_required }) => {
  if (token_required && !hasToken()) update({ connection: 'needs-token' });
  else connect();
});
