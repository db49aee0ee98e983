// Live sessions: OpenAI Realtime sockets open together, each speaking as a microphone does, one
// 20 ms frame of 24 kHz PCM16 every 20 ms (1 s of tone, then silence for as long as the session
// lasts), so the server's VAD ends each utterance and the reply is spoken back under
// `x-mock-latency: realistic`. Each reply is timed from its `response.created` to its
// `response.done` as its client saw it, against the exact pacing of the paced events it carried
// (the first-chunk pause, then one chunk pause before each further delta).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startMock } from '../lib/servers.js';
import { percentile } from '../lib/stats.js';
import { emptyScenarios } from '../lib/workload.js';

const RATE = 24_000;
const FRAME_MS = 20;
const FRAME_BYTES = (RATE / 1000) * FRAME_MS * 2;
const SPEECH_FRAMES = 50;
/** The build's `REALISTIC` pacing (src/exchange/pacing.ts). */
const PACING = { firstChunkMs: 350, chunkMs: 30 };
const REPLY = 'Your table for two is booked for eight tonight, by the window, and a reminder will come an hour before.';
const SESSION_TIMEOUT_MS = 60_000;

const silence = Buffer.alloc(FRAME_BYTES).toString('base64');
const tone = (() => {
  const pcm = Buffer.alloc(FRAME_BYTES);
  for (let i = 0; i < FRAME_BYTES / 2; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
  return pcm.toString('base64');
})();

function writeFixture(root) {
  const dir = join(root, 'fixtures-realtime');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'chat.yaml'), `chat:\n  - name: voice-reply\n    match: { model: gpt-realtime }\n    reply: { text: "${REPLY}" }\n`);
  return dir;
}

/** Opens one session and resolves once the mock has said `session.created`. */
function open(url) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/realtime?model=gpt-realtime`, { headers: { authorization: 'Bearer sk-bench', 'x-mock-latency': 'realistic' } });
  const session = { socket, frames: 0, paced: 0, createdAt: undefined, doneAt: undefined, done: false };
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      const event = JSON.parse(data.toString());
      if (event.type === 'session.created') resolve(session);
      else if (event.type === 'response.created') session.createdAt = performance.now();
      else if (event.delta !== undefined) session.paced++;
      else if (event.type === 'response.done') {
        session.doneAt = performance.now();
        session.done = true;
      } else if (event.type === 'error') reject(new Error(`realtime error event: ${JSON.stringify(event.error)}`));
    });
  });
}

/** Every 20 ms, on deadlines from the start, each session not yet answered sends its next frame. */
function speakAll(sessions) {
  return new Promise((resolve, reject) => {
    const startMs = performance.now();
    let tick = 0;
    const deadline = startMs + SESSION_TIMEOUT_MS;
    const step = () => {
      const waiting = sessions.filter((session) => !session.done);
      if (waiting.length === 0) return resolve();
      if (performance.now() > deadline) return reject(new Error(`${waiting.length} realtime sessions unanswered after ${SESSION_TIMEOUT_MS} ms`));
      for (const session of waiting) session.socket.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: session.frames++ < SPEECH_FRAMES ? tone : silence }));
      tick++;
      setTimeout(step, Math.max(0, startMs + tick * FRAME_MS - performance.now()));
    };
    step();
  });
}

/** @param settings `{ sessions }` */
export async function realtime(root, settings) {
  const server = await startMock({ fixtures: writeFixture(root), scenarios: emptyScenarios(root) });
  try {
    // One session first, unmeasured: the first speech loads the audio worker.
    const warm = [await open(server.url)];
    await speakAll(warm);
    warm[0].socket.close();
    const sessions = await Promise.all(Array.from({ length: settings.sessions }, () => open(server.url)));
    await server.reset();
    const startMs = performance.now();
    await speakAll(sessions);
    const wallMs = performance.now() - startMs;
    const own = await server.stats();
    for (const session of sessions) session.socket.close();
    const durations = sessions.map((session) => session.doneAt - session.createdAt);
    const paced = Math.max(...sessions.map((session) => session.paced));
    return {
      sessions: settings.sessions,
      pacedEvents: paced,
      exactMs: PACING.firstChunkMs + (paced - 1) * PACING.chunkMs,
      durationP50Ms: percentile(durations, 50),
      durationP99Ms: percentile(durations, 99),
      lagP99Ms: own.lagP99Ms,
      lagMaxMs: own.lagMaxMs,
      peakRssMb: own.peakRssMb,
      // What the load costs the mock itself, whatever else the machine runs: CPU ms (all its threads) per second of the run.
      cpuMsPerSecond: (1000 * own.cpuMs) / wallMs,
    };
  } finally {
    await server.stop();
  }
}
