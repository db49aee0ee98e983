// `POST /v1/audio/transcriptions` and `/v1/audio/translations`: what an uploaded recording says,
// from a `transcriptions:` fixture, else the text the mock's own speech carries, else seeded
// sentences as long as the recording.
import { invalid } from '../conversation/errors.js';
import { seededRandom } from '../conversation/random.js';
import { spokenProse } from '../conversation/spoken-prose.js';
import { promptSubject } from '../conversation/subject.js';
import { firstTranscription } from '../conversation/transcription-fixture.js';
import { audioKind, AUDIO_KINDS, hearAudio, type HeardAudio } from '../media/audio/hear.js';
import { SECONDS_PER_WORD } from '../media/audio/tones.js';
import { toFault } from '../scenarios/apply.js';
import { languageName } from '../styles/audio/languages.js';
import { encodeTranscript, tokenBilled, transcriptEvents, type Transcript } from '../styles/audio/transcription-encode.js';
import { decodeTranscription, type TranscriptionBody } from '../styles/audio/transcription-request.js';
import { openaiEnvelope, openaiStreamError } from '../styles/openai-envelope.js';
import { json, newNotes, settle, type Exchange, type Outcome } from './exchange.js';
import type { Mock } from './mock.js';
import { pacingFor } from './pacing.js';
import { mediaModel } from './request.js';
import { scenarioStep } from './scenario.js';

type Task = Transcript['task'];

function uploadedAudio(exchange: Exchange) {
  if (!exchange.multipart) throw invalid("This endpoint takes a multipart/form-data body with the recording in 'file'.", 'file', 'invalid_content_type');
  const files = exchange.uploads.get('file') ?? [];
  if (files.length !== 1) throw invalid("Missing required parameter: 'file' (one audio file in a multipart/form-data body).", 'file', 'missing_required_parameter');
  const upload = files[0]!;
  const kind = audioKind(upload.filename, upload.data);
  if (!kind) throw invalid(`Invalid file format. Supported formats: ${AUDIO_KINDS.map((k) => `'${k}'`).join(', ')}.`, 'file', 'invalid_audio_file');
  return { upload, kind };
}

function languageOf(task: Task, request: TranscriptionBody, fixtureLanguage: string | undefined): string {
  if (task === 'translate') return 'english';
  return languageName(fixtureLanguage ?? request.language ?? 'en') ?? fixtureLanguage ?? 'english';
}

function seededText(mock: Mock, heard: HeardAudio): string {
  return spokenProse(seededRandom(mock.options.seed, 'transcript', heard.sha256), Math.round(heard.seconds / SECONDS_PER_WORD));
}

function answerTranscript(mock: Mock, exchange: Exchange, task: Task): Promise<Outcome> {
  return settle(newNotes('audio'), async (notes, headers) => {
    const { upload, kind } = uploadedAudio(exchange);
    const request = decodeTranscription(exchange.body);
    const model = mediaModel(mock, request.model, 'transcription');
    notes.model = model.id;
    if (task === 'translate' && tokenBilled(model.id)) throw invalid(`Invalid value for 'model': translations take whisper-1, not '${model.id}'.`, 'model', 'invalid_value');
    if (request.language !== undefined && !languageName(request.language)) {
      throw invalid(`Invalid value for 'language': '${request.language}' is not an ISO-639-1 code Whisper knows.`, 'language', 'invalid_value');
    }
    const heard = await hearAudio(kind, upload.data);
    notes.uploads = { file: { name: upload.filename, type: kind, size: upload.data.length, duration_seconds: heard.seconds, sha256: heard.sha256 } };
    const decision = scenarioStep(mock, exchange, openaiEnvelope, promptSubject(model.id, request.prompt ?? '', exchange.headers), notes, headers);
    if (decision.error) return { error: decision.error, waitMs: decision.waitMs };
    const subject = { model: model.id, language: request.language, prompt: request.prompt, fileName: upload.filename, sha256: heard.sha256 };
    const fixture = firstTranscription(mock.store.current.transcriptions, subject);
    notes.fixture = fixture?.name ?? null;
    const transcript: Transcript = {
      task,
      model: model.id,
      text: fixture?.reply.text ?? heard.spokenText ?? seededText(mock, heard),
      language: languageOf(task, request, fixture?.reply.language),
      seconds: heard.seconds,
      prompt: request.prompt,
      granularities: request.granularities,
    };
    const fault = toFault(decision.fault, openaiStreamError);
    // whisper-1 ignores `stream` and answers whole, as the vendor's SDK documents.
    if (request.stream && task === 'transcribe' && tokenBilled(model.id)) {
      const pacing = pacingFor(exchange.headers['x-mock-latency'] || undefined, undefined, mock.options.latency);
      return { plan: { kind: 'stream', status: 200, headers: {}, framing: 'sse', events: transcriptEvents(transcript), pacing }, fault };
    }
    const body = encodeTranscript(transcript, request.format);
    if ('json' in body) return { ...json(body.json), fault };
    return { plan: { kind: 'binary', status: 200, headers: {}, contentType: body.contentType, data: Buffer.from(body.text) }, fault };
  });
}

export function audioTranscriptions(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return answerTranscript(mock, exchange, 'transcribe');
}

export function audioTranslations(mock: Mock, exchange: Exchange): Promise<Outcome> {
  return answerTranscript(mock, exchange, 'translate');
}
