// A chat reply said aloud, for a request that asks for audio output: each choice's text becomes
// the mock's speech (the voice of `/v1/audio/speech`) and its transcript, as the vendor answers
// audio instead of text (`ChatCompletionAudio`).
import { invalid } from '../conversation/errors.js';
import type { Reply } from '../conversation/types.js';
import { REFUSED_SPEECH_FORMATS, SPEECH_FORMATS } from './audio/formats.js';
import { speak } from './audio/speak.js';

export async function withSpeech(reply: Reply, output: { voice: string; format: string }, seed: number | string): Promise<Reply> {
  if (!Object.hasOwn(SPEECH_FORMATS, output.format)) {
    const refused = (REFUSED_SPEECH_FORMATS as readonly string[]).includes(output.format) ? 'does not make' : 'does not know';
    throw invalid(`Invalid value for 'audio.format': the mock ${refused} '${output.format}' audio; it makes ${Object.keys(SPEECH_FORMATS).join(', ')}.`, 'audio.format', 'invalid_value');
  }
  const choices = await Promise.all(
    reply.choices.map(async (choice) => {
      if (choice.text === '') return choice;
      const audio = await speak({ text: choice.text, voice: output.voice, format: output.format, speed: 1, seed });
      return { ...choice, audio: { data: audio.data.toString('base64'), transcript: choice.text, seconds: audio.seconds } };
    }),
  );
  return { ...reply, choices };
}
