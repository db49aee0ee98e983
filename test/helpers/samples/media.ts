// Samples of the media rows: pictures, videos (OpenAI's form and the gateway's tasks) and audio.
// A multipart row's fields are strings, as a form carries them.
import { wavHeader } from '../../../src/media/audio/wav.js';
import { renderPng } from '../../../src/media/png.js';
import { firstOf, idOf, textAt, type DoorSamples, type Made } from './sample.js';

const PICTURE = [{ filename: 'lamp.png', data: renderPng(16, 16, 'route sample') }];
/** The smallest bytes the mock takes for an MP4 clip: a box whose type is `ftyp`. */
const CLIP = [{ filename: 'gull.mp4', data: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16)]) }];
const SECOND_OF_SPEECH = Buffer.alloc(48_000);
const RECORDING = [{ filename: 'call.wav', data: Buffer.concat([wavHeader(SECOND_OF_SPEECH.length), SECOND_OF_SPEECH]) }];

/** Long enough for any video the samples make to be completed on the mock clock. */
const VIDEO_DONE_MS = 60_000;

/** `/v1/images/files/{session}/{file}` from the URL a picture was answered with. */
function pictureFile(made: Made): { session: string; file: string } {
  const url = new URL(textAt(firstOf(made, 'data'), 'url'));
  const [session, file] = url.pathname.split('/').slice(-2).map(decodeURIComponent);
  return { session: session!, file: file! };
}

const byVideo = (made: Made) => ({ params: { id: idOf(made) } });

const IMAGES: DoorSamples = {
  door: 'images',
  rows: {
    'POST /v1/images/generations': [
      { request: { body: { model: 'gpt-image-1', prompt: 'a lamp', size: '64x64', n: 1 } }, status: 200, model: 'gpt-image-1', source: 'generated' },
      { label: 'as a URL', request: { body: { model: 'gpt-image-1', prompt: 'a lamp', size: '64x64', response_format: 'url' } }, status: 200, model: 'gpt-image-1' },
    ],
    'POST /v1/images/edits': { request: { body: { model: 'gpt-image-1', prompt: 'a lamp', size: '64x64' }, uploads: { image: PICTURE } }, status: 200, model: 'gpt-image-1' },
    'POST /v1/images/variations': { request: { body: { model: 'gpt-image-1', size: '64x64' }, uploads: { image: PICTURE } }, status: 200, model: 'gpt-image-1' },
    'GET /v1/images/files/:session/:file': { after: 'POST /v1/images/generations#as a URL', request: (made) => ({ params: pictureFile(made) }), status: 200 },
  },
};

const VIDEOS: DoorSamples = {
  door: 'videos',
  rows: {
    'POST /v1/videos': { request: { body: { model: 'sora-2', prompt: 'a wave', seconds: '4', size: '720x1280' } }, status: 200, model: 'sora-2', source: 'generated' },
    'GET /v1/videos': { after: 'POST /v1/videos', request: { query: { limit: '5' } }, status: 200 },
    'GET /v1/videos/:id': { after: 'POST /v1/videos', request: byVideo, status: 200, model: 'sora-2' },
    'DELETE /v1/videos/:id': { after: 'POST /v1/videos', request: byVideo, status: 200 },
    'GET /v1/videos/:id/content': { after: 'POST /v1/videos', waitMs: VIDEO_DONE_MS, request: (made) => ({ ...byVideo(made), query: { variant: 'thumbnail' } }), status: 200 },
    'POST /v1/videos/:id/remix': { after: 'POST /v1/videos', waitMs: VIDEO_DONE_MS, request: (made) => ({ ...byVideo(made), body: { prompt: 'again' } }), status: 200 },
    'POST /v1/videos/edits': { after: 'POST /v1/videos', waitMs: VIDEO_DONE_MS, request: (made) => ({ body: { prompt: 'snow', video: { id: idOf(made) } } }), status: 200 },
    'POST /v1/videos/extensions': {
      after: 'POST /v1/videos',
      waitMs: VIDEO_DONE_MS,
      request: (made) => ({ body: { prompt: 'more', seconds: '4', video: { id: idOf(made) } } }),
      status: 200,
    },
    'POST /v1/videos/characters': { request: { body: { name: 'Gull' }, uploads: { video: CLIP } }, status: 200 },
    'GET /v1/videos/characters/:id': { after: 'POST /v1/videos/characters', request: (made) => ({ params: { id: idOf(made) } }), status: 200 },
    'POST /v1/video/generations': { request: { body: { model: 'seedance-1-0-pro', prompt: 'a wave', metadata: { ratio: '16:9' } } }, status: 200, model: 'seedance-1-0-pro' },
    'GET /v1/video/generations/:task_id': { after: 'POST /v1/video/generations', request: (made) => ({ params: { task_id: textAt(made, 'task_id') } }), status: 200 },
  },
};

const AUDIO: DoorSamples = {
  door: 'audio',
  rows: {
    'POST /v1/audio/speech': { request: { body: { model: 'tts-1', voice: 'sage', input: 'one two three', response_format: 'wav' } }, status: 200, model: 'tts-1', source: 'generated' },
    'POST /v1/audio/transcriptions': { request: { body: { model: 'whisper-1', language: 'en' }, uploads: { file: RECORDING } }, status: 200, model: 'whisper-1' },
    'POST /v1/audio/translations': { request: { body: { model: 'whisper-1' }, uploads: { file: RECORDING } }, status: 200, model: 'whisper-1' },
  },
};

export const MEDIA_SAMPLES: readonly DoorSamples[] = [IMAGES, VIDEOS, AUDIO];
