// Audio: a 200-word speech in each format (fresh text each round, so no answer comes from the
// speech cache), the longest event-loop stall while 4,096-character speeches are made, and a
// 60-second WAV transcribed. The mock's repo fixtures give it the catalog's audio models.
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
 * The most CPU one slice of speech work takes between two event-loop turns, over every format
 * (the build's own encoder, in this process, codecs loaded): what the wall-clock stall is made
 * of when the machine has a core free, whatever else is running. CPU time counts every thread
 * of the process, GC helpers included, so it errs high.
 */
async function longestSlice(input) {
  const { encodeSpeech } = await import('../../dist/media/audio/speak.js');
  let longest = 0;
  for (const format of SPEECH_FORMATS) {
    // As in a server that has answered this format before: the codec loaded and compiled to its
    // final tier (the first long speech's first slices pay for V8's optimising compiler).
    await encodeSpeech({ text: `warm ${input}`, voice: 'alloy', format, speed: 1, seed: 0 }, async () => {});
    let mark = process.cpuUsage();
    await encodeSpeech({ text: input, voice: 'alloy', format, speed: 1, seed: 0 }, async () => {
      const { user, system } = process.cpuUsage(mark);
      longest = Math.max(longest, (user + system) / 1000);
      await new Promise((resolve) => setImmediate(resolve));
      mark = process.cpuUsage();
    });
  }
  return longest;
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
  const server = await startMock({ fixtures: new URL('../../fixtures', import.meta.url).pathname, scenarios });
  const speechMs = {};
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
    await server.reset();
    for (const format of SPEECH_FORMATS) await speak(server.url, words(800, 1000).slice(0, 4096), format);
    const { lagMaxMs } = await server.stats();
    const sliceCpuMs = await longestSlice(words(800, 2000).slice(0, 4096));
    const wav = await silentWav(60);
    const transcribeRuns = [];
    for (let round = 0; round < settings.rounds; round++) {
      const started = performance.now();
      await transcribe(server.url, wav);
      transcribeRuns.push(performance.now() - started);
    }
    return { speechMs, longSpeechLagMaxMs: lagMaxMs, longestSliceCpuMs: sliceCpuMs, transcribeMs: median(transcribeRuns) };
  } finally {
    await server.stop();
  }
}
