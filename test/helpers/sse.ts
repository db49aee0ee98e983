// Reads a server-sent event stream the way the SDKs do, for the fields an SDK does not hand back
// (an error event's own body, the numbering around it).
export interface SseEvent {
  event?: string;
  /** The JSON of the `data:` lines, or the text itself when it is not JSON (`[DONE]`). */
  data: unknown;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sseEvents(body: string): SseEvent[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split(/\r?\n/);
      const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim();
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      return { ...(event ? { event } : {}), data: parsed(data) };
    });
}
