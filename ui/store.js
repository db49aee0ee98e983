// The page's state and how it stays current: load the journal, health, scenarios, clock and
// tasks, then live on the event stream. Changes are batched to one render per frame, so a burst
// of requests costs one repaint.
import { api, eventsUrl } from './api.js';

/** The page keeps at most this many entries (the mock keeps --journal-max per session). */
const MAX_ENTRIES = 20_000;
/** Requests in flight shown at once; past it the oldest goes (its entry comes with `request`). */
const MAX_IN_FLIGHT = 200;

const listeners = new Set();
let frame = 0;

export const state = {
  connection: 'connecting',
  entries: [],
  /** Whether the journal's first load has answered: until then an empty list means nothing. */
  journalLoaded: false,
  /** Requests started and not yet journaled, oldest first: `{ id, time, session, method, path, model, message, sent, total }`. */
  inFlight: [],
  health: null,
  scenarios: null,
  clock: null,
  tasks: [],
  /** Live drift (`--drift`): `{ enabled, findings }`, one finding per endpoint and path. */
  drift: null,
  notice: '',
};

function changed() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    for (const listener of listeners) listener();
  });
}

export function listen(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function update(patch) {
  Object.assign(state, patch);
  changed();
}

function addEntries(entries) {
  const next = state.entries.concat(entries);
  update({ entries: next.length > MAX_ENTRIES ? next.slice(next.length - MAX_ENTRIES) : next });
}

/** Reports a failed action in the notice line instead of the console. */
export async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    if (error.status === 401) update({ connection: 'needs-token' });
    update({ notice: error.message });
    return undefined;
  }
}

export const refresh = {
  health: () => attempt(async () => update({ health: await api('/health') })),
  scenarios: () => attempt(async () => update({ scenarios: await api('/scenarios') })),
  clock: () => attempt(async () => update({ clock: { ...(await api('/clock')), readAt: Date.now() } })),
  tasks: () => attempt(async () => update({ tasks: (await api('/tasks')).tasks })),
  drift: () => attempt(async () => update({ drift: await api('/drift') })),
};

function upsertTask(task) {
  const others = state.tasks.filter((known) => !(known.id === task.id && known.session === task.session));
  update({ tasks: [...others, task].sort((a, b) => a.createdMs - b.createdMs) });
}

/** A drift row replaces the one of its endpoint and path, as the mock keeps them. */
function upsertDrift(row) {
  const others = (state.drift?.findings ?? []).filter((known) => !(known.endpoint === row.endpoint && known.path === row.path));
  const findings = [...others, row].sort((a, b) => a.endpoint.localeCompare(b.endpoint) || a.path.localeCompare(b.path));
  update({ drift: { enabled: true, findings } });
}

export async function clearDrift() {
  await attempt(async () => {
    await api('/drift', { method: 'DELETE' });
    update({ drift: { ...state.drift, findings: [] } });
  });
}

let source;

const requestsPage = (cursor) => api(`/requests${cursor ? `?${cursor}` : ''}`);

/**
 * The journal a page at a time, each page a short call of the mock: after a reconnection only
 * what came after the newest entry shown; otherwise (or when that entry is gone) the latest
 * entries, back to MAX_ENTRIES.
 */
async function loadJournal() {
  const newest = state.entries.at(-1)?.id;
  if (newest) {
    const later = [];
    let after = newest;
    try {
      for (;;) {
        const page = await requestsPage(`after=${encodeURIComponent(after)}`);
        later.push(...page.requests);
        if (!page.more || page.requests.length === 0) return { entries: state.entries, later };
        after = page.requests.at(-1).id;
      }
    } catch {
      // The newest entry shown is gone (cleared, evicted): start again from the latest.
    }
  }
  let entries = [];
  let before;
  for (;;) {
    const page = await requestsPage(before && `before=${encodeURIComponent(before)}`);
    entries = page.requests.concat(entries);
    if (!page.more || page.requests.length === 0 || entries.length >= MAX_ENTRIES) return { entries: [], later: entries };
    before = page.requests[0].id;
  }
}

/** Follows the event stream; each (re)connection catches up on the journal, so nothing is missed. */
export function connect() {
  source?.close();
  source = new EventSource(eventsUrl());
  let pending = null;
  source.addEventListener('open', async () => {
    update({ connection: 'live' });
    pending = [];
    const journal = await attempt(loadJournal);
    const known = new Set([...(journal?.entries ?? []), ...(journal?.later ?? [])].map((entry) => entry.id));
    const arrived = pending.filter((entry) => !known.has(entry.id));
    pending = null;
    update({ journalLoaded: state.journalLoaded || journal !== undefined, entries: journal?.entries ?? [], inFlight: state.inFlight.filter((flying) => !known.has(flying.id)) });
    addEntries([...(journal?.later ?? []), ...arrived]);
    await Promise.all([refresh.health(), refresh.scenarios(), refresh.clock(), refresh.tasks(), refresh.drift()]);
  });
  source.addEventListener('error', () => {
    const closed = source.readyState === EventSource.CLOSED;
    update({ connection: closed ? 'closed' : 'reconnecting' });
    // A refused stream (a wrong token) closes for good; asking health tells why.
    if (closed) refresh.health();
  });
  source.addEventListener('start', (event) => {
    const started = JSON.parse(event.data);
    update({ inFlight: [...state.inFlight, { ...started, sent: 0, total: 0 }].slice(-MAX_IN_FLIGHT) });
  });
  source.addEventListener('progress', (event) => {
    const { id, sent, total } = JSON.parse(event.data);
    update({ inFlight: state.inFlight.map((known) => (known.id === id ? { ...known, sent, total } : known)) });
  });
  source.addEventListener('request', (event) => {
    const entry = JSON.parse(event.data);
    if (state.inFlight.some((known) => known.id === entry.id)) update({ inFlight: state.inFlight.filter((known) => known.id !== entry.id) });
    if (pending) pending.push(entry);
    else addEntries([entry]);
    if (!state.scenarios?.sessions.some((known) => known.session === entry.session)) refresh.scenarios();
  });
  source.addEventListener('reload', (event) => {
    const reload = JSON.parse(event.data);
    update({ health: { ...state.health, ...reload } });
    refresh.health();
    refresh.scenarios();
  });
  source.addEventListener('scenario', () => refresh.scenarios());
  source.addEventListener('task', (event) => upsertTask(JSON.parse(event.data)));
  source.addEventListener('drift', (event) => upsertDrift(JSON.parse(event.data)));
}

export async function clearJournal() {
  await attempt(async () => {
    await api('/requests', { method: 'DELETE' });
    update({ entries: [] });
  });
}
