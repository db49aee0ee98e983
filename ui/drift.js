// The Drift panel (a mock started with `--upstream --drift`): where the forwarded answers' shapes
// differed from the mock's own, one line per endpoint and path, live on `event: drift`. Its
// example opens the journal entry that last showed it.
import { html } from './html.js';
import { clearDrift } from './store.js';

export function Drift({ drift, onSelect }) {
  if (!drift?.enabled) return '';
  const findings = drift.findings;
  return html`<section class="panel drift">
    <h3>Drift <small>${findings.length ? `${findings.length} paths` : 'none seen'}</small></h3>
    ${findings.map((row) => html`<div class="drift-row" data-path=${row.path} title=${`first seen ${row.first_seen}, last seen ${row.last_seen}`}>
      <div class="drift-line"><code>${row.path}</code><b class="drift-count">${row.count}×</b></div>
      <div class="muted">${row.endpoint} · ${row.kind}</div>
      <div class="muted">upstream: ${row.upstream} · mock: ${row.mock}</div>
      <button class="link" onClick=${() => onSelect(row.example)}>${row.example}</button>
    </div>`)}
    ${findings.length ? html`<button class="drift-clear" onClick=${clearDrift}>clear</button>` : ''}
  </section>`;
}
