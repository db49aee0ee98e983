// One journal entry in full: what was asked beside what was answered, and why that answer
// (the source, the fixture or the closest miss, the scenario step and fault).
import { useState } from 'preact/hooks';
import { clockTime, dollars, joinedText, nearMissWords, sourceOf, statusClass, usageOf } from './format.js';
import { html } from './html.js';
import { JsonView } from './json-view.js';
import { SaveFixture } from './save-fixture.js';

function Code({ text }) {
  // Backticks in the plain-words sentences become code spans.
  return text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part));
}

function Why({ entry }) {
  const lines = [];
  lines.push(html`<div><b>x-mock-source</b> <code>${sourceOf(entry) || '—'}</code></div>`);
  if (entry.fixture) lines.push(html`<div>Answered by fixture <code>${entry.fixture}</code>.</div>`);
  if (entry.near_miss) lines.push(html`<div class="miss" title=${entry.near_miss.file}><${Code} text=${`No fixture matched; closest: ${nearMissWords(entry.near_miss)}.`} /></div>`);
  if (entry.scenario) {
    const step = entry.scenario_step === null || entry.scenario_step === undefined ? '' : `, step ${entry.scenario_step}`;
    const fault = entry.fault ? `, fault \`${entry.fault}\`` : '';
    lines.push(html`<div><${Code} text=${`Scenario \`${entry.scenario}\`${step}${fault}.`} /></div>`);
  } else if (entry.fault) lines.push(html`<div><${Code} text=${`Fault \`${entry.fault}\`.`} /></div>`);
  if (entry.upstream) lines.push(html`<div>Forwarded to <code>${entry.upstream.url}</code>: ${entry.upstream.status} in ${entry.upstream.duration_ms} ms.</div>`);
  if (entry.recorded) lines.push(html`<div>Recorded as <code>${entry.recorded}</code>.</div>`);
  return html`<div class="why">${lines}</div>`;
}

function StreamAnswer({ response }) {
  const [tab, setTab] = useState('text');
  return html`<div>
    <div class="tabs">
      <button class=${tab === 'text' ? 'on' : ''} onClick=${() => setTab('text')}>joined text</button>
      <button class=${tab === 'events' ? 'on' : ''} onClick=${() => setTab('events')}>${response.events.length} events</button>
      ${response.truncated ? html`<span class="muted">(cut to keep the entry under 1 MB)</span>` : ''}
    </div>
    ${tab === 'text'
      ? html`<pre class="json stream-text">${joinedText(response.events) || '(no text deltas)'}</pre>`
      : html`<ol class="events">${response.events.map((event) => html`<li><span class="event-name">${event.event ?? 'data'}</span><${JsonView} value=${event.data} /></li>`)}</ol>`}
  </div>`;
}

function Answer({ entry }) {
  const response = entry.response;
  if (!response) return html`<p class="muted">This mock's journal does not keep answers; the status was <b>${entry.status}</b>.</p>`;
  const usage = usageOf(response);
  return html`<div>
    ${response.headers && Object.keys(response.headers).length
      ? html`<details><summary>${Object.keys(response.headers).length} headers</summary><${JsonView} value=${response.headers} /></details>`
      : ''}
    ${usage ? html`<div class="usage"><b>usage</b> <code>${JSON.stringify(usage)}</code></div>` : ''}
    ${Array.isArray(response.events) ? html`<${StreamAnswer} response=${response} />` : html`<${JsonView} value=${response.body} />`}
  </div>`;
}

export function Detail({ entry }) {
  const [saving, setSaving] = useState(false);
  if (!entry) return html`<section class="detail empty-detail"><p>Pick a request (click, or ↑ ↓) to see it in full.</p></section>`;
  return html`<section class="detail" data-id=${entry.id}>
    <header class="detail-head">
      <h2><span class=${`status ${statusClass(entry.status)}`}>${entry.status}</span> ${entry.method} ${entry.path}</h2>
      <button onClick=${() => setSaving(true)}>Save as fixture</button>
    </header>
    <div class="meta">
      <span>${clockTime(entry.time)}</span><span>${entry.duration_ms} ms</span><span>session <b>${entry.session}</b></span>
      ${entry.style ? html`<span>${entry.style}</span>` : ''}${entry.model ? html`<span>model <b>${entry.model}</b></span>` : ''}
      ${entry.usage ? html`<span class="entry-usage">${entry.usage.input_tokens} in · ${entry.usage.output_tokens} out${entry.cost_usd === null ? '' : ` · ${dollars(entry.cost_usd)}`}</span>` : ''}<span class="muted">${entry.id}</span>
    </div>
    <${Why} entry=${entry} />
    <div class="sides">
      <div class="side"><h3>Request</h3><${JsonView} value=${entry.body} /></div>
      <div class="side"><h3>Answer ${entry.response ? html`<span class=${`status ${statusClass(entry.response.status)}`}>${entry.response.status}</span>` : ''}</h3><${Answer} entry=${entry} /></div>
    </div>
    ${saving ? html`<${SaveFixture} entry=${entry} onClose=${() => setSaving(false)} />` : ''}
  </section>`;
}
