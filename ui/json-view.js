// JSON shown indented, keys and values coloured; very long documents are shown plain (and cut)
// so a 1 MB body does not become a million spans.
import { html } from './html.js';

const HIGHLIGHT_MAX = 60_000;
const SHOW_MAX = 400_000;
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

function highlighted(text) {
  const out = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > at) out.push(text.slice(at, match.index));
    const kind = match[1] ? (match[2] ? 'key' : 'string') : match[3] ? 'literal' : 'number';
    out.push(html`<span class=${`j-${kind}`}>${match[1] ?? match[0]}</span>`);
    if (match[2]) out.push(match[2]);
    at = match.index + match[0].length;
  }
  out.push(text.slice(at));
  return out;
}

export function JsonView({ value }) {
  if (value === undefined) return html`<pre class="json muted">absent</pre>`;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  if (text.length > HIGHLIGHT_MAX) {
    const cut = text.length > SHOW_MAX;
    return html`<pre class="json">${cut ? `${text.slice(0, SHOW_MAX)}\n… ${text.length - SHOW_MAX} more characters` : text}</pre>`;
  }
  return html`<pre class="json">${typeof value === 'string' ? text : highlighted(text)}</pre>`;
}
