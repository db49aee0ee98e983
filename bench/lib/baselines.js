// The baselines the mock is compared with: request handlers that answer fixed bytes the mock
// produced, with as little work as such a server can do.

function readJson(req, then) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => then(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
}

/** The least a JSON API server does: read the body, parse it, answer with fixed bytes. */
export function bareJson(body) {
  const bytes = Buffer.from(body, 'utf8');
  return (req, res) =>
    readJson(req, () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      res.end(bytes);
    });
}

/**
 * The same SSE bytes the mock streamed, written the way the mock's writer paces them: what comes
 * before the first content event at once, then each content event at its deadline, the closing
 * events with the last one. The deadlines are fixed from the request's read, and a first content
 * event that went late moves the ones after it, as the mock's pacer does (src/server/pacer.ts): a
 * timer re-armed for each gap would add each timer's lateness to the stream's time, which the
 * mock's does not. One timer per stream, cleared when the client leaves.
 * @param pacing `{ firstChunkMs, chunkMs }`
 */
export function bareSse(sse, pacing) {
  const frames = sse.split('\n\n').filter(Boolean).map((frame) => `${frame}\n\n`);
  const writes = [''];
  for (const frame of frames) {
    if (frame.includes('"delta":{"content":')) writes.push(frame);
    else writes[writes.length - 1] += frame;
  }
  return (req, res) =>
    readJson(req, () => {
      let startedMs = performance.now();
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
      if (writes.length === 1) return res.end(writes[0]);
      res.write(writes[0]);
      let next = 1;
      let timer;
      const step = () => {
        if (next === 1) startedMs = Math.max(startedMs, performance.now() - pacing.firstChunkMs);
        if (next === writes.length - 1) return res.end(writes[next]);
        res.write(writes[next++]);
        timer = setTimeout(step, Math.max(0, startedMs + pacing.firstChunkMs + (next - 1) * pacing.chunkMs - performance.now()));
      };
      timer = setTimeout(step, pacing.firstChunkMs);
      res.once('close', () => clearTimeout(timer));
    });
}

/** The mock's framework and nothing else: Koa, @koa/router and koa-body answering fixed bytes. */
export async function koaJson(body) {
  const { default: Koa } = await import('koa');
  const { default: Router } = await import('@koa/router');
  const { koaBody } = await import('koa-body');
  const app = new Koa();
  const router = new Router();
  router.post('/v1/chat/completions', koaBody(), (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  app.use(router.routes());
  return app.callback();
}
