// Single requests outside the load generator: samples of a reply, and the hot-reload poller.
import { CHAT_PATH, HEADERS } from './workload.js';

export async function postChat(url, body, headers = {}) {
  const response = await fetch(`${url}${CHAT_PATH}`, { method: 'POST', headers: { ...HEADERS, ...headers }, body });
  return { status: response.status, text: await response.text() };
}

/** A sample reply that must be a 200 containing `expected`, or the bench measures the wrong path. */
export async function sampleReply(url, body, expected, headers = {}) {
  const reply = await postChat(url, body, headers);
  if (reply.status !== 200 || !reply.text.includes(expected)) {
    throw new Error(`expected a 200 containing "${expected}" from ${url}, got ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  return reply.text;
}

/** The text a chat-completions SSE stream carries: its `delta.content` pieces joined. */
export function streamedText(sse) {
  let text = '';
  for (const frame of sse.split('\n\n')) {
    if (!frame.startsWith('data: ') || frame === 'data: [DONE]') continue;
    text += JSON.parse(frame.slice('data: '.length)).choices[0]?.delta?.content ?? '';
  }
  return text;
}

/**
 * A sample JSON answer of any door that must be a 200 for which `check(answer)` holds, or the
 * bench measures the wrong path.
 */
export async function sampleJson(url, path, { method = 'POST', body } = {}, check) {
  const response = await fetch(`${url}${path}`, { method, headers: HEADERS, body });
  const text = await response.text();
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON: refused just below, with the text.
  }
  if (response.status !== 200 || answer === undefined || !check(answer)) {
    throw new Error(`expected a 200 of the expected shape from ${method} ${url}${path}, got ${response.status}: ${text.slice(0, 300)}`);
  }
  return answer;
}
