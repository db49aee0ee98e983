// The side of the page that acts on the mock: health (always in view), the clock, scenarios
// per session, and video tasks and batches with their progress.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { heldSize } from './format.js';
import { html } from './html.js';
import { attempt, refresh, state, update } from './store.js';

export function Health({ health }) {
  if (!health) return html`<div class="health">health …</div>`;
  const errors = health.errors ?? [];
  return html`<div class=${`health ${errors.length ? 'bad' : 'good'}`} data-status=${errors.length ? 'degraded' : 'ok'}>
    <div class="health-line">
      <span class="dot"></span><b>${errors.length ? 'degraded' : 'ok'}</b>
      <span>${(health.files ?? []).length} files</span><span>reloads ${health.reloads}</span>
      ${health.memory ? html`<span title=${`bytes the sessions hold: journal, responses, fixtures, pictures, tasks, files, sessions; the process's caches hold ${heldSize(health.memory.caches)} besides`}>${heldSize(health.memory.total - health.memory.caches)} held</span>` : ''}
      ${errors.length ? html`<span>last good configuration serving</span>` : ''}
    </div>
    ${errors.length ? html`<ul class="errors">${errors.map((e) => html`<li><code>${e.file}:${e.line}:${e.col}</code>: ${e.message}</li>`)}</ul>` : ''}
  </div>`;
}

function useTick(ms) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

async function moveClock(body) {
  const clock = await attempt(() => api('/clock', { method: 'POST', body }));
  if (clock) update({ clock: { ...clock, readAt: Date.now() } });
  await refresh.tasks();
}

export function Clock({ clock }) {
  useTick(1000);
  if (!clock) return html`<div class="clock"></div>`;
  // A real clock moves on its own: the page counts along from the last reading.
  const now = clock.mode === 'real' ? clock.now_ms + (Date.now() - clock.readAt) : clock.now_ms;
  const set = () => {
    const value = prompt('Set the mock clock to (ISO 8601)', new Date(now).toISOString());
    if (value) moveClock({ set: value });
  };
  return html`<div class="clock">
    <span class="now" title=${`${clock.mode} clock`}>${new Date(now).toISOString().replace('T', ' ').slice(0, 19)} <small>${clock.mode}</small></span>
    ${[['+1 s', 1000], ['+10 s', 10_000], ['+1 min', 60_000]].map(([label, ms]) => html`<button onClick=${() => moveClock({ advance_ms: ms })}>${label}</button>`)}
    <button onClick=${set}>set…</button>
  </div>`;
}

function switchScenario(session, name) {
  const query = session === null ? '' : `?session=${encodeURIComponent(session)}`;
  return attempt(async () => {
    if (name) await api(`/scenario${query}`, { method: 'PUT', body: { name } });
    else await api(`/scenario${query}`, { method: 'DELETE' });
    await refresh.scenarios();
  });
}

function ScenarioSwitch({ label, session, active, scenarios }) {
  return html`<label class=${`switch${active ? ' active' : ''}`}>
    <span>${label}</span>
    <select data-session=${session ?? ''} value=${active ?? ''} onChange=${(event) => switchScenario(session, event.currentTarget.value)}>
      <option value="">no scenario</option>
      ${scenarios.map(({ name, description }) => html`<option value=${name} title=${description ?? ''}>${name}</option>`)}
    </select>
  </label>`;
}

export function Scenarios({ scenarios }) {
  if (!scenarios) return '';
  const sessions = [...scenarios.sessions].sort((a, b) => a.session.localeCompare(b.session));
  return html`<section class="panel scenarios">
    <h3>Scenarios</h3>
    <${ScenarioSwitch} label="global" session=${null} active=${scenarios.global} scenarios=${scenarios.scenarios} />
    ${sessions.map((s) => html`<${ScenarioSwitch} label=${s.session} session=${s.session} active=${s.scenario} scenarios=${scenarios.scenarios} />`)}
  </section>`;
}

// Video tasks queue and run; batches validate, run, finalize or cancel.
const RUNNING = new Set(['queued', 'in_progress', 'validating', 'finalizing', 'cancelling']);

export function Tasks({ tasks, clock }) {
  const running = tasks.some((task) => RUNNING.has(task.status));
  // Tasks move with the clock, not by events: while some run on a real clock, look again each second.
  useEffect(() => {
    if (!running || clock?.mode !== 'real') return undefined;
    const timer = setInterval(refresh.tasks, 1000);
    return () => clearInterval(timer);
  }, [running, clock?.mode]);
  if (tasks.length === 0) return '';
  return html`<section class="panel tasks">
    <h3>Video tasks and batches</h3>
    ${tasks.map((task) => html`<div class=${`task ${task.status}`} data-task=${task.id}>
      <div class="task-line"><code>${task.id}</code><span>${task.status}</span><b class="progress-number">${task.progress}%</b></div>
      <div class="bar" role="progressbar" aria-valuenow=${task.progress} aria-valuemin="0" aria-valuemax="100"><div style=${`width:${task.progress}%`}></div></div>
      <div class="muted task-prompt" title=${task.prompt}>${task.session !== 'default' ? `${task.session} · ` : ''}${task.model} · ${task.prompt}</div>
    </div>`)}
  </section>`;
}

export function Files({ health }) {
  if (!health?.files?.length) return '';
  return html`<section class="panel files">
    <details><summary>${health.files.length} configuration files</summary>
      <ul>${health.files.map((file) => html`<li><code>${file}</code></li>`)}</ul>
    </details>
  </section>`;
}

export function dismissNotice() {
  update({ notice: '' });
  return state;
}
