// `POST /v1/audio/speech`: the input read aloud as real audio in the asked format, whole or (for
// gpt-4o-mini-tts) as `speech.audio.*` events.
import { invalid } from '../conversation/errors.js';
import { promptSubject } from '../conversation/subject.js';
import { countTokens } from '../conversation/tokens.js';
import { REFUSED_SPEECH_FORMATS, SPEECH_FORMATS } from '../media/audio/formats.js';
import { speak } from '../media/audio/speak.js';
import { streamedSpeech } from '../media/audio/streamed-speech.js';
import { speechEvents } from '../styles/audio/speech-events.js';
import { decodeSpeech, type SpeechBody } from '../styles/audio/speech-request.js';
import { audioTokens } from '../conversation/audio-tokens.js';
import { openaiStreamError } from '../styles/openai-envelope.js';
import { modelOperation, type Asked } from './operation.js';
import { pacingFor } from './pacing.js';
import { mediaModel } from './request.js';

interface AskedSpeech extends Asked {
  model: string;
  request: SpeechBody;
}

export const audioSpeech = modelOperation<{ model: string | null; request: SpeechBody }, AskedSpeech, never>({
  read: (_mock, exchange) => {
    const request = decodeSpeech(exchange.body);
    return { request, model: request.model };
  },
  ask: (mock, exchange, { request }) => {
    const model = mediaModel(mock, request.model, 'speech').id;
    if ((REFUSED_SPEECH_FORMATS as readonly string[]).includes(request.format)) {
      throw invalid(
        `Invalid value for 'response_format': the mock does not make '${request.format}' audio; it makes ${Object.keys(SPEECH_FORMATS).join(', ')}.`,
        'response_format',
        'invalid_value',
      );
    }
    return { model, request, subject: promptSubject(model, request.input, exchange.headers) };
  },
  build: async (mock, exchange, { request }) => {
    // Speech is priced per character of input, as the vendor's list does for its speech models.
    const metered = { characters: request.input.length };
    const spoken = { text: request.input, voice: request.voice, format: request.format, speed: request.speed, seed: mock.options.seed };
    const streamed = request.sse ? undefined : streamedSpeech(spoken);
    if (streamed) {
      const about = { format: request.format, duration_seconds: streamed.seconds };
      return { plan: { kind: 'binary', status: 200, headers: {}, contentType: streamed.contentType, data: streamed.file, about }, notes: { metered } };
    }
    const audio = await speak(spoken);
    if (!request.sse) {
      const about = { format: request.format, duration_seconds: audio.seconds };
      return { plan: { kind: 'binary', status: 200, headers: {}, contentType: audio.contentType, data: audio.data, about }, notes: { metered } };
    }
    const input = countTokens(request.input) + (request.instructions ? countTokens(request.instructions) : 0);
    const output = audioTokens(audio.seconds);
    const events = speechEvents(audio.data, { input_tokens: input, output_tokens: output, total_tokens: input + output });
    const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
    return { plan: { kind: 'stream', status: 200, headers: {}, events, pacing, streamError: openaiStreamError }, notes: { metered } };
  },
});
