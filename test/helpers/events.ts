// A client of GET /__admin/events that collects what it is sent, for tests that wait on events.

export interface Received {
  event: string;
  data: any;
}

/** An SSE client that collects events; `next(n)` resolves once n more of the wanted kind came. */
export async function listen(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const received: Received[] = [];
  let waiters: Array<() => void> = [];
  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event && data) received.push({ event, data: JSON.parse(data) });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  const of = (kind: string) => received.filter((item) => item.event === kind);
  return {
    response,
    received,
    of,
    async until(kind: string, count: number): Promise<Received[]> {
      while (of(kind).length < count) await new Promise<void>((resolve) => waiters.push(resolve)).finally(() => (waiters = []));
      return of(kind);
    },
    close: async () => {
      abort.abort();
      await done;
    },
  };
}
