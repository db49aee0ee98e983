// Pure helpers that turn journal entries into what the page shows.

export function statusClass(status) {
  if (status >= 200 && status < 300) return 's2';
  if (status >= 300 && status < 400) return 's3';
  if (status >= 400 && status < 500 && status !== 499) return 's4';
  if (status >= 500) return 's5';
  return 's0';
}

export function clockTime(iso) {
  return typeof iso === 'string' ? iso.slice(11, 23) : '';
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}

/** The last thing the user said, in whichever style the body speaks; a prompt for media. */
export function lastUserText(body) {
  if (!body || typeof body !== 'object') return '';
  if (typeof body.prompt === 'string') return body.prompt;
  if (typeof body.input === 'string') return body.input;
  // The other doors: embeddings' and moderation's first input, rerank's query, an embedded content.
  if (Array.isArray(body.input) && typeof body.input[0] === 'string') return body.input[0];
  if (typeof body.query === 'string') return body.query;
  const embedded = body.content ?? (Array.isArray(body.requests) ? body.requests[0]?.content : undefined);
  if (embedded && typeof embedded === 'object' && !body.contents) return textOf(embedded.parts);
  const turns = body.messages ?? body.contents ?? body.input;
  if (!Array.isArray(turns)) return '';
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn && (turn.role === 'user' || (turn.role === undefined && body.contents))) {
      const text = textOf(turn.content ?? turn.parts);
      if (text) return text;
    }
  }
  return '';
}

/** What answered: the `x-mock-source` when journaled, else the fixture or scenario name. */
/** A row's message: what the user said, or for a call of a fake MCP server's tool, the tool and its arguments. */
export function rowMessage(entry) {
  if (entry.mcp) return `${entry.mcp.tool} ${JSON.stringify(entry.body?.arguments ?? {})}`;
  return lastUserText(entry.body);
}

export function sourceOf(entry) {
  if (entry.source) return entry.source;
  if (entry.scenario) return `scenario:${entry.scenario}`;
  if (entry.fixture) return `fixture:${entry.fixture}`;
  return entry.style ? 'generated' : '';
}

/** The near miss in plain words, e.g. "fixture `weather` (chat.yaml) did not match on `tools`, `model`". */
export function nearMissWords(miss) {
  if (!miss) return '';
  // The file's own name reads better than its absolute path; the page shows the path on hover.
  const file = miss.file ? ` (${miss.file.split(/[\\/]/).pop()})` : '';
  const keys = (miss.failed ?? []).map((key) => `\`${key}\``).join(', ');
  return `fixture \`${miss.fixture}\`${file} did not match${keys ? ` on ${keys}` : ''}`;
}

function deltaText(event) {
  const data = event.data;
  if (!data || typeof data !== 'object') return '';
  if (typeof data.delta === 'string' && (event.event ?? data.type ?? '').includes('text')) return data.delta;
  if (data.delta && typeof data.delta.text === 'string') return data.delta.text;
  const choice = data.choices?.[0]?.delta;
  if (choice && typeof choice.content === 'string') return choice.content;
  const parts = data.candidates?.[0]?.content?.parts;
  if (Array.isArray(parts)) return parts.map((part) => (part.thought ? '' : part.text ?? '')).join('');
  return '';
}

/** A stream's text deltas joined, as the client would show them. */
export function joinedText(events) {
  return (events ?? []).map(deltaText).join('');
}

/** Token usage wherever the answer carries it (the last stream event that has some). */
export function usageOf(response) {
  if (!response) return null;
  const find = (value) => value?.usage ?? value?.usageMetadata ?? value?.response?.usage ?? value?.message?.usage ?? null;
  if (Array.isArray(response.events)) {
    for (let i = response.events.length - 1; i >= 0; i--) {
      const usage = find(response.events[i].data);
      if (usage) return usage;
    }
    return null;
  }
  return find(response.body);
}

/** Lower-case text the free-text filter looks in; a long body contributes its start only. */
export function searchText(entry) {
  const body = entry.body === undefined || entry.body === null ? '' : JSON.stringify(entry.body).slice(0, 2000);
  return [entry.id, entry.method, entry.path, entry.status, entry.model, entry.session, sourceOf(entry), entry.fixture, entry.scenario, lastUserText(entry.body), body]
    .filter((part) => part !== null && part !== undefined)
    .join(' ')
    .toLowerCase();
}

/** Bytes held, in KB below 1 MB (a fresh mock holds a few hundred KB, which reads as 0.0 MB). */
export function heldSize(bytes) {
  const kb = bytes / 1024;
  return kb < 1024 ? `${Math.max(1, Math.round(kb))} KB` : `${(kb / 1024).toFixed(1)} MB`;
}

/** One event on one line: its data as compact JSON (text as it came). */
export function eventLine(event) {
  return typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
}

/** USD as the page shows it: a few significant digits, enough for fractions of a cent. */
export function dollars(usd) {
  return `$${Number(usd.toPrecision(4))}`;
}

/** Tokens and cost of the entries given (the journal's `usage` and `cost_usd`), as the filters show them. */
export function usageTotal(entries) {
  let tokens = 0;
  let cost = 0;
  for (const entry of entries) {
    tokens += (entry.usage?.input_tokens ?? 0) + (entry.usage?.output_tokens ?? 0);
    cost += entry.cost_usd ?? 0;
  }
  return `${tokens.toLocaleString('en')} tokens · ${dollars(cost)}`;
}
