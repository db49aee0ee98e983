// The input audio buffer of a Realtime socket: appended PCM, server VAD over it, and a committed
// buffer's transcript, in SPEC 24's order: a `transcriptions:` fixture matched by the audio's
// sha256, the text of speech the mock itself made with these samples, else seeded sentences as
// long as the audio.
import { audioDigest } from '../../media/audio/hear.js';
import { proseOnWorker } from '../../media/audio/audio-thread.js';
import { spokenTextOf } from '../../media/audio/speak.js';
import { SECONDS_PER_WORD } from '../../media/audio/tones.js';
import { firstTranscription } from '../../conversation/transcription-fixture.js';
import type { Mock } from '../../exchange/mock.js';
import type { RealtimeItem, SessionConfig } from '../../styles/realtime/conversation.js';
import type { RealtimeEvent } from '../../styles/realtime/events.js';
import { DEFAULT_SILENCE_MS, INPUT_RATE, voiceActivity } from '../../styles/realtime/voice-activity.js';

export interface AudioHooks {
  send(event: RealtimeEvent): void;
  added(item: RealtimeItem): void;
  respond(): Promise<void>;
  cancel(reason: 'turn_detected'): boolean;
  newId(prefix: string): string;
}

interface TurnDetection {
  type?: string;
  create_response?: boolean;
  interrupt_response?: boolean;
  silence_duration_ms?: number;
}

/** The transcript of input PCM16 at `rate`, in SPEC 24's order: a `transcriptions:` fixture's text matched by its sha256, the text of speech the mock made with these samples, else seeded sentences as long as the audio. */
export async function inputTranscript(mock: Mock, model: string, pcm: Buffer, rate = INPUT_RATE): Promise<string> {
  const sha256 = audioDigest(pcm);
  const fixture = firstTranscription(mock.store.current.transcriptions, { model, fileName: 'audio.pcm', sha256 });
  if (fixture?.reply.text !== undefined) return fixture.reply.text;
  const spoken = spokenTextOf(pcm);
  if (spoken !== undefined) return spoken;
  const words = Math.max(1, Math.round(pcm.length / 2 / rate / SECONDS_PER_WORD));
  return proseOnWorker([mock.options.seed, 'transcript', sha256], words);
}

export function inputAudio(mock: Mock, session: SessionConfig & Record<string, unknown>, hooks: AudioHooks) {
  const input = () => ((session.audio as { input?: { turn_detection?: TurnDetection | null; transcription?: unknown } } | undefined)?.input ?? {});
  let chunks: Buffer[] = [];
  let itemId = hooks.newId('item');
  const vad = voiceActivity();

  async function commit(): Promise<void> {
    const pcm = Buffer.concat(chunks);
    const id = itemId;
    chunks = [];
    itemId = hooks.newId('item');
    vad.reset();
    if (pcm.length === 0) {
      hooks.send({ type: 'error', error: { type: 'invalid_request_error', code: 'input_audio_buffer_commit_empty', message: 'Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 0.00ms of audio.', param: null, event_id: null } });
      return;
    }
    hooks.send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: id });
    const text = await inputTranscript(mock, String(session.model), pcm);
    hooks.added({ id, type: 'message', role: 'user', content: [{ type: 'input_audio', transcript: text }] });
    if (input().transcription) {
      hooks.send({ type: 'conversation.item.input_audio_transcription.completed', item_id: id, content_index: 0, transcript: text, usage: { type: 'duration', seconds: pcm.length / 2 / INPUT_RATE } });
    }
  }

  return {
    append(base64: string) {
      const pcm = Buffer.from(base64, 'base64');
      chunks.push(pcm);
      const detection = input().turn_detection;
      if (detection?.type !== 'server_vad' && detection?.type !== 'semantic_vad') return;
      const heard = vad.hear(pcm, detection.silence_duration_ms ?? DEFAULT_SILENCE_MS);
      if (heard.startedMs !== undefined) {
        if (detection.interrupt_response !== false) hooks.cancel('turn_detected');
        hooks.send({ type: 'input_audio_buffer.speech_started', audio_start_ms: heard.startedMs, item_id: itemId });
      }
      if (heard.stoppedMs !== undefined) {
        hooks.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: heard.stoppedMs, item_id: itemId });
        void commit().then(() => (detection.create_response !== false ? hooks.respond() : undefined));
      }
    },
    commit,
    clear() {
      chunks = [];
      vad.reset();
      hooks.send({ type: 'input_audio_buffer.cleared' });
    },
  };
}
