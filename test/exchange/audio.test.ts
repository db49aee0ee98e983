// Speech and transcriptions without HTTP: a row of the route table run on a plain request, its
// outcome read as the shell would (plan, error, notes).
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/exchange/exchange.js';
import { wavHeader } from '../../src/media/audio/wav.js';
import { answer, plainMock } from '../helpers/mock.js';

const mock = plainMock({
  fixtures: { 'transcriptions.yaml': 'transcriptions:\n  - name: french-call\n    match: { language: fr }\n    reply: { text: "Bonjour à tous." }\n' },
  scenarios: { 'busy.yaml': 'scenarios:\n  - name: busy\n    steps: [ { error: rate_limit, times: 1 } ]\n' },
});

function plan(outcome: Outcome) {
  if (!('plan' in outcome)) throw new Error(`expected a plan, got ${outcome.error.message}`);
  return outcome.plan;
}

const recording = (seconds: number) => {
  const samples = Buffer.alloc(seconds * 48000);
  return [{ filename: 'call.wav', data: Buffer.concat([wavHeader(samples.length), samples]) }];
};

describe('speech and transcriptions, as plain operations', () => {
  it('answers speech as bytes that say their format and length for the journal', async () => {
    const outcome = await answer(mock, 'POST /v1/audio/speech', { body: { model: 'tts-1-hd', voice: 'sage', input: 'one two three', response_format: 'flac' } });
    const answered = plan(outcome);
    expect(answered).toMatchObject({ kind: 'binary', contentType: 'audio/flac', about: { format: 'flac', duration_seconds: 1.2 } });
    expect(outcome.notes).toMatchObject({ style: 'audio', model: 'tts-1-hd', fixture: null });
  });

  it('takes the scenario step before any audio is made', async () => {
    const headers = { 'x-mock-session': 'audio-busy', 'x-mock-scenario': 'busy' };
    const first = await answer(mock, 'POST /v1/audio/speech', { headers, body: { model: 'tts-1', voice: 'ash', input: 'hello' } });
    expect('error' in first && first.error.kind).toBe('rate_limit');
    expect('plan' in (await answer(mock, 'POST /v1/audio/speech', { headers, body: { model: 'tts-1', voice: 'ash', input: 'hello' } }))).toBe(true);
  });

  it('notes the fixture and what the upload was, not its bytes', async () => {
    const outcome = await answer(mock, 'POST /v1/audio/transcriptions', {
      multipart: true,
      uploads: new Map([['file', recording(2)]]),
      body: { model: 'whisper-1', language: 'fr', response_format: 'text' },
    });
    const answered = plan(outcome);
    expect(answered.kind === 'binary' && Buffer.from(answered.data as Uint8Array).toString()).toBe('Bonjour à tous.\n');
    expect(outcome.notes).toMatchObject({ fixture: 'french-call', uploads: { file: { name: 'call.wav', type: 'wav', size: 44 + 96000, duration_seconds: 2 } } });
  });

  it('refuses a JSON body: the recording comes as multipart', async () => {
    const outcome = await answer(mock, 'POST /v1/audio/transcriptions', { body: { model: 'whisper-1' } });
    expect('error' in outcome && outcome.error.options.param).toBe('file');
  });
});
