// `POST /v1/audio/transcriptions` and `/v1/audio/translations`: what an uploaded recording says,
// from a `transcriptions:` fixture, else the text the mock's own speech carries, else seeded
// sentences as long as the recording.
import { invalid } from '../conversation/errors.js';
import { promptSubject } from '../conversation/subject.js';
import { firstTranscription, type TranscriptionFixture, type TranscriptionSubject } from '../conversation/transcription-fixture.js';
import { hearOnWorker, proseOnWorker } from '../media/audio/audio-thread.js';
import { audioDigest, audioKind, AUDIO_KINDS, type AudioKind } from '../media/audio/hear.js';
import { MOST_SPOKEN_WORDS, SECONDS_PER_WORD } from '../media/audio/tones.js';
import type { Upload } from '../media/upload.js';
import { languageName } from '../styles/audio/languages.js';
import { DIARIZING_MODEL, encodeTranscript, tokenBilled, transcriptEvents, transcriptMetered, type Transcript } from '../styles/audio/transcription-encode.js';
import { decodeTranscription, type TranscriptFormat, type TranscriptionBody } from '../styles/audio/transcription-request.js';
import { openaiStreamError } from '../styles/openai-envelope.js';
import { json, type Exchange, type Operation } from './exchange.js';
import { modelOperation, type Asked } from './operation.js';
import { pacingFor } from './pacing.js';
import { mediaModel } from './request.js';

type Task = Transcript['task'];

interface Read {
  model: string | null;
  request: TranscriptionBody;
  upload: Upload;
  kind: AudioKind;
}

interface AskedTranscript extends Asked, Read {
  model: string;
  heard: TranscriptionSubject;
}

function readUpload(exchange: Exchange): Read {
  if (!exchange.multipart) throw invalid("This endpoint takes a multipart/form-data body with the recording in 'file'.", 'file', 'invalid_content_type');
  const files = exchange.uploads.get('file') ?? [];
  if (files.length !== 1) throw invalid("Missing required parameter: 'file' (one audio file in a multipart/form-data body).", 'file', 'missing_required_parameter');
  const upload = files[0]!;
  if (upload.data.length === 0) throw invalid(`The audio file '${upload.filename}' is empty.`, 'file', 'invalid_audio_file');
  const kind = audioKind(upload.filename, upload.data);
  if (!kind) throw invalid(`Invalid file format. Supported formats: ${AUDIO_KINDS.map((k) => `'${k}'`).join(', ')}.`, 'file', 'invalid_audio_file');
  const request = decodeTranscription(exchange.body);
  return { model: request.model, request, upload, kind };
}

/**
 * The formats a model answers in, as the SDK's `response_format` documents them; the gpt-4o
 * transcribe models are held only to refusing `diarized_json` (the mock answers them the others).
 */
function formatsOf(model: string): readonly TranscriptFormat[] | undefined {
  if (model === DIARIZING_MODEL) return ['json', 'text', 'diarized_json'];
  return tokenBilled(model) ? undefined : ['json', 'text', 'srt', 'verbose_json', 'vtt'];
}

/** What the vendor refuses of a model's options: speakers and logprobs are each one model family's. */
function checkModelOptions(model: string, request: TranscriptionBody): void {
  const formats = formatsOf(model);
  if (formats ? !formats.includes(request.format) : request.format === 'diarized_json') {
    const offered = (formats ?? ['json', 'text']).map((f) => `'${f}'`).join(', ');
    throw invalid(`response_format '${request.format}' is not compatible with model '${model}'. Use ${offered} instead.`, 'response_format', 'invalid_value');
  }
  if (request.logprobs && model === DIARIZING_MODEL) throw invalid(`include[] 'logprobs' is not supported with model '${model}'.`, 'include', 'invalid_value');
}

function languageOf(task: Task, request: TranscriptionBody, fixtureLanguage: string | undefined): string {
  if (task === 'translate') return 'english';
  return languageName(fixtureLanguage ?? request.language ?? 'en') ?? fixtureLanguage ?? 'english';
}

function answerTranscript(task: Task): Operation {
  return modelOperation<Read, AskedTranscript, TranscriptionFixture>({
    read: (_mock, exchange) => readUpload(exchange),
    ask: (mock, exchange, read) => {
      const { request, upload } = read;
      const model = mediaModel(mock, request.model, 'transcription').id;
      if (task === 'translate' && tokenBilled(model)) throw invalid(`Invalid value for 'model': translations take whisper-1, not '${model}'.`, 'model', 'invalid_value');
      if (task === 'transcribe') checkModelOptions(model, request);
      if (request.language !== undefined && !languageName(request.language)) {
        throw invalid(`Invalid value for 'language': '${request.language}' is not an ISO-639-1 code Whisper knows.`, 'language', 'invalid_value');
      }
      const heard = { model, language: request.language, prompt: request.prompt, fileName: upload.filename, sha256: audioDigest(upload.data) };
      return { ...read, model, heard, subject: promptSubject(model, request.prompt ?? '', exchange.headers) };
    },
    find: (mock, _exchange, { heard }) => {
      const fixture = firstTranscription(mock.store.current.transcriptions, heard);
      return { found: fixture, notes: { fixture: fixture?.name ?? null } };
    },
    build: async (mock, exchange, { model, request, upload, kind, heard }, fixture) => {
      const audio = await hearOnWorker(upload.data);
      // The journal keeps what the file is, not its bytes.
      const uploads = { file: { name: upload.filename, type: kind, size: upload.data.length, duration_seconds: audio.seconds, sha256: heard.sha256 } };
      // An unknown recording says no more than the mock's longest speech: a transcript's timeline,
      // tokens and events are made on the server's thread, and 2,048 words take it about 50 ms.
      const words = Math.min(MOST_SPOKEN_WORDS, Math.round(audio.seconds / SECONDS_PER_WORD));
      const text = fixture?.reply.text ?? audio.spokenText ?? (await proseOnWorker([mock.options.seed, 'transcript', heard.sha256], words));
      const transcript: Transcript = {
        task,
        model,
        text,
        language: languageOf(task, request, fixture?.reply.language),
        seconds: audio.seconds,
        prompt: request.prompt,
        granularities: request.granularities,
        // Logprobs are the gpt-4o models' and only in `json` (and its stream); whisper-1 has none.
        ...(request.logprobs && tokenBilled(model) && request.format === 'json' ? { logprobsSeed: `${mock.options.seed}:${heard.sha256}` } : {}),
        ...(model === DIARIZING_MODEL ? { speakers: request.speakers } : {}),
      };
      // whisper-1 ignores `stream` and answers whole, as the vendor's SDK documents.
      if (request.stream && task === 'transcribe' && tokenBilled(model)) {
        const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
        const plan = { kind: 'stream' as const, status: 200, headers: {}, events: transcriptEvents(transcript), pacing, streamError: openaiStreamError };
        return { plan, notes: { uploads, metered: transcriptMetered(transcript) } };
      }
      const body = encodeTranscript(transcript, request.format);
      const plan = 'json' in body ? json(body.json).plan : { kind: 'binary' as const, status: 200, headers: {}, contentType: body.contentType, data: Buffer.from(body.text) };
      return { plan, notes: { uploads, metered: transcriptMetered(transcript) } };
    },
  });
}

export const audioTranscriptions = answerTranscript('transcribe');
export const audioTranslations = answerTranscript('translate');
