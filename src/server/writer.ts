// The single writer: the only code that puts bytes on a response. It performs a plan (JSON,
// binary or a paced stream) with an optional fault, and when the client goes away it stops at
// once, leaving no timer and no listener behind.
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { Fault, Framing, Plan, StreamEvent } from '../conversation/plan.js';

/** Resolves after `ms`, or early (false) when the response closes. */
function pause(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

function drain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function frame(event: StreamEvent, framing: Framing, first: boolean): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  if (framing === 'json-array') return first ? `[${data}` : `,\r\n${data}`;
  return event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

function streamHeaders(framing: Framing, headers: Record<string, string>): Record<string, string> {
  return {
    ...headers,
    'content-type': framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
}

async function writeStream(ctx: Context, plan: Extract<Plan, { kind: 'stream' }>, fault: Fault | undefined): Promise<void> {
  const res = ctx.res;
  ctx.respond = false;
  res.writeHead(plan.status, { ...(ctx.response.headers as Record<string, string>), ...streamHeaders(plan.framing, plan.headers) });
  res.flushHeaders();
  const stopAt = fault && (fault.kind === 'cut_stream' || fault.kind === 'stream_error') ? fault.afterChunks : Infinity;
  const { firstChunkMs, chunkMs } = plan.pacing;
  let pending = '';
  let paced = 0;
  let written = 0;
  const flush = async (): Promise<boolean> => {
    if (pending && !res.write(pending)) await drain(res);
    pending = '';
    return !res.destroyed;
  };
  for (const event of plan.events) {
    if (written >= stopAt) break;
    if (event.paced && (firstChunkMs > 0 || chunkMs > 0)) {
      if (!(await flush())) return;
      if (!(await pause(res, paced === 0 ? firstChunkMs : chunkMs))) return;
      paced++;
    }
    if (fault?.kind === 'malformed' && written === stopAtMalformed(plan.events.length)) {
      pending += plan.framing === 'sse' ? 'data: {"malformed":\n\n' : ',\r\n{"malformed":';
      break;
    }
    pending += frame(event, plan.framing, written === 0);
    written++;
  }
  if (fault?.kind === 'stream_error' && written >= stopAt) {
    for (const event of fault.events) pending += frame(event, plan.framing, written++ === 0);
  }
  if (fault?.kind === 'cut_stream' && written >= stopAt) {
    await flush();
    res.destroy();
    return;
  }
  if (plan.framing === 'json-array' && fault?.kind !== 'malformed') pending += written === 0 ? '[]' : ']';
  if (!(await flush())) return;
  res.end();
}

/** Malformed streams break in the middle, after the first half of the events. */
function stopAtMalformed(events: number): number {
  return Math.max(1, Math.floor(events / 2));
}

export async function write(ctx: Context, plan: Plan, fault?: Fault): Promise<void> {
  if (fault?.kind === 'delay' && !(await pause(ctx.res, fault.ms))) return;
  if (fault?.kind === 'reset') {
    ctx.respond = false;
    ctx.req.socket.destroy();
    return;
  }
  if (plan.kind === 'stream') return writeStream(ctx, plan, fault);
  ctx.status = plan.status;
  ctx.set(plan.headers);
  if (plan.kind === 'binary') {
    ctx.type = plan.contentType;
    ctx.body = Buffer.from(plan.data.buffer, plan.data.byteOffset, plan.data.byteLength);
    return;
  }
  ctx.type = 'application/json';
  const json = JSON.stringify(plan.body);
  ctx.body = fault?.kind === 'malformed' ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : json;
}
