// Audio: a 200-word speech in each format (fresh text each round, so no answer comes from the
// speech cache), a 60-second WAV transcribed, and the server's longest event-loop stall during
// each: 4,096-character speeches in each format, the first on a fresh server. The mock's repo
// fixtures give it the catalog's audio models.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../lib/stats.js';
import { startMock } from '../lib/servers.js';
import { HEADERS } from '../lib/workload.js';

export const SPEECH_FORMATS = ['mp3', 'opus', 'flac', 'wav', 'pcm'];

function words(count, round) {
  return Array.from({ length: count }, (_, i) => `word${(i * 7 + round) % 97}`).join(' ');
}

async function speak(url, input, format) {
  const response = await fetch(`${url}/v1/audio/speech`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input, response_format: format }),
  });
  if (!response.ok) throw new Error(`speech answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

async function silentWav(seconds) {
  // The mock's own WAV writer, from the build the bench measures (loaded once the build is known to exist).
  const { wavHeader } = await import('../../dist/media/audio/wav.js');
  const samples = Buffer.alloc(seconds * 24000 * 2);
  return Buffer.concat([wavHeader(samples.length), samples]);
}

/**
 * While `work` runs: the server's longest event-loop turn in main-thread CPU time (`cpuMs`, what
 * the mock itself holds other clients up for) and its wall-clock lag (`lagMs`, which on a busy
 * machine also counts the time the OS gave the CPU to other processes).
 */
async function stallDuring(server, work) {
  await server.reset();
  await work();
  const { turnCpuMaxMs, lagMaxMs } = await server.stats();
  return { cpuMs: turnCpuMaxMs, lagMs: lagMaxMs };
}

const idle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * For each format, on a server of its own: the stalls while it idles a second (the longest lag
 * is what the machine does to it anyway), then during its first 4,096-character speech (which
 * starts the audio worker and loads the codec), then during a second one.
 */
async function longSpeechStalls(fixtures, scenarios) {
  const stalls = {};
  let idleMs = 0;
  for (const format of SPEECH_FORMATS) {
    const server = await startMock({ fixtures, scenarios }, undefined, { watchTurns: true });
    try {
      idleMs = Math.max(idleMs, (await stallDuring(server, () => idle(1000))).lagMs);
      const first = await stallDuring(server, () => speak(server.url, words(800, 1000).slice(0, 4096), format));
      const later = await stallDuring(server, () => speak(server.url, words(800, 2000).slice(0, 4096), format));
      stalls[format] = { first, later };
    } finally {
      await server.stop();
    }
  }
  return { stalls, idleMs };
}

async function transcribe(url, wav) {
  const form = new FormData();
  form.append('file', new Blob([wav]), 'minute.wav');
  form.append('model', 'whisper-1');
  form.append('response_format', 'verbose_json');
  const response = await fetch(`${url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: HEADERS.authorization }, body: form });
  if (!response.ok) throw new Error(`transcription answered ${response.status}`);
  const body = await response.json();
  if (body.duration !== 60) throw new Error(`a 60-second WAV was heard as ${body.duration} s`);
}

/** @param settings `{ rounds }` */
export async function audio(root, settings) {
  const scenarios = join(root, 'audio-scenarios');
  mkdirSync(scenarios, { recursive: true });
  const fixtures = new URL('../../fixtures', import.meta.url).pathname;
  const server = await startMock({ fixtures, scenarios }, undefined, { watchTurns: true });
  const speechMs = {};
  let transcribeMs;
  let transcribeStall;
  try {
    for (const format of SPEECH_FORMATS) {
      // The first speech of a format loads its codec; it is reported apart.
      let started = performance.now();
      await speak(server.url, words(200, 0), format);
      const firstMs = performance.now() - started;
      const runs = [];
      for (let round = 1; round <= settings.rounds; round++) {
        started = performance.now();
        await speak(server.url, words(200, round), format);
        runs.push(performance.now() - started);
      }
      speechMs[format] = { firstMs, medianMs: median(runs) };
    }
    const wav = await silentWav(60);
    const transcribeRuns = [];
    // The first upload loads the tag reader (on the audio worker).
    transcribeStall = await stallDuring(server, async () => {
      for (let round = 0; round < settings.rounds; round++) {
        const started = performance.now();
        await transcribe(server.url, wav);
        transcribeRuns.push(performance.now() - started);
      }
    });
    transcribeMs = median(transcribeRuns);
  } finally {
    await server.stop();
  }
  const { stalls, idleMs } = await longSpeechStalls(fixtures, scenarios);
  return { speechMs, longSpeechStalls: stalls, idleLagMs: idleMs, transcribeMs, transcribeStall };
}
