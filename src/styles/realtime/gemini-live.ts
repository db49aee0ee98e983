// Gemini Live (`BidiGenerateContent`) as pure functions: the session's setup and contents as the
// generateContent request a turn is answered with, the reply read back from its answer, and the
// server messages of one turn (model turn parts of text or PCM audio, transcriptions, tool calls,
// generationComplete, turnComplete with usageMetadata). The socket and its pacing stay with the door.

/** A content as the wire carries it: a role and its parts. */
export interface LiveContent {
  role?: string;
  parts?: Array<Record<string, unknown>>;
}

/** The `setup` message's fields a turn reads. */
export interface LiveSetup {
  model?: string;
  generationConfig?: Record<string, unknown> & { responseModalities?: string[] };
  systemInstruction?: LiveContent;
  tools?: unknown[];
  realtimeInputConfig?: { automaticActivityDetection?: { disabled?: boolean; silenceDurationMs?: number } };
  inputAudioTranscription?: object;
  outputAudioTranscription?: object;
}

export interface LiveCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What a turn answered, read from the generateContent answer it was answered with. */
export interface LiveReply {
  text: string;
  calls: LiveCall[];
  promptTokens: number;
  textTokens: number;
}

/** A server message; `paced` marks the ones --latency spaces out. */
export interface LiveMessage {
  paced?: boolean;
  body: Record<string, unknown>;
}

/** `models/NAME` (or a bare name), as the setup names it, to the catalog's id. */
export function liveModelId(model: string | undefined): string {
  return String(model ?? '').replace(/^models\//, '');
}

export function speaks(setup: LiveSetup): boolean {
  const modalities = setup.generationConfig?.responseModalities ?? ['AUDIO'];
  return modalities.some((modality) => modality.toUpperCase() === 'AUDIO');
}

/** The generateContent request a turn of the session is answered with. */
export function generateRequestOf(setup: LiveSetup, contents: readonly LiveContent[]): Record<string, unknown> {
  // Output modality and voice are the socket's business: a generateContent answer is text and calls.
  const { responseModalities: _modalities, speechConfig: _speech, ...generationConfig } = setup.generationConfig ?? {};
  return {
    contents,
    ...(setup.systemInstruction && { systemInstruction: setup.systemInstruction }),
    ...(setup.tools && setup.tools.length > 0 && { tools: setup.tools }),
    ...(Object.keys(generationConfig).length > 0 && { generationConfig }),
  };
}

interface GenerateAnswer {
  candidates?: Array<{ content?: LiveContent }>;
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
}

/** The reply of a generateContent answer; `newId` names calls the answer left unnamed (the client answers each by id). */
export function liveReplyOf(answer: unknown, newId: () => string): LiveReply {
  const body = answer as GenerateAnswer;
  const parts = body.candidates?.[0]?.content?.parts ?? [];
  const text = parts.filter((part) => typeof part.text === 'string' && part.thought !== true).map((part) => part.text as string).join('');
  const calls = parts.flatMap((part) => {
    const call = part.functionCall as { id?: string; name: string; args?: Record<string, unknown> } | undefined;
    return call ? [{ id: call.id ?? newId(), name: call.name, args: call.args ?? {} }] : [];
  });
  return { text, calls, promptTokens: body.usageMetadata?.promptTokenCount ?? 0, textTokens: body.usageMetadata?.candidatesTokenCount ?? 0 };
}

/** The model's content a finished turn leaves in the conversation. */
export function modelContentOf(reply: LiveReply): LiveContent {
  return { role: 'model', parts: [...(reply.text ? [{ text: reply.text }] : []), ...reply.calls.map((call) => ({ functionCall: call }))] };
}

/** Audio is counted at the vendor's 25 tokens a second. */
export function audioTokensOf(seconds: number): number {
  return Math.ceil(seconds * 25);
}

export function liveUsage(reply: LiveReply, audioTokens: number | undefined): Record<string, unknown> {
  const response = audioTokens ?? reply.textTokens;
  return {
    promptTokenCount: reply.promptTokens,
    responseTokenCount: response,
    totalTokenCount: reply.promptTokens + response,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: reply.promptTokens }],
    responseTokensDetails: [{ modality: audioTokens === undefined ? 'TEXT' : 'AUDIO', tokenCount: response }],
  };
}

export interface TurnShape {
  /** The text cut as a stream cuts it. */
  pieces: readonly string[];
  /** Base64 chunks of the reply's speech (24 kHz PCM16), when the session speaks. */
  audio?: readonly string[];
  audioTokens?: number;
  /** Whether the setup asked for the transcript of the model's speech. */
  transcribe: boolean;
}

const AUDIO_MIME = 'audio/pcm;rate=24000';

/**
 * The messages of one turn in the vendor's order: the model turn's parts (text pieces, or audio
 * chunks beside their transcript), then `generationComplete` and `turnComplete` with usage; a
 * reply of calls is one `toolCall` message, the turn left open for the client's `toolResponse`.
 */
export function turnMessages(reply: LiveReply, shape: TurnShape): LiveMessage[] {
  const usageMetadata = liveUsage(reply, shape.audio && shape.audioTokens);
  const messages: LiveMessage[] = [];
  if (shape.audio) {
    const steps = Math.max(shape.audio.length, shape.transcribe ? shape.pieces.length : 0);
    for (let step = 0; step < steps; step++) {
      const data = shape.audio[step];
      const piece = shape.transcribe ? shape.pieces[step] : undefined;
      const serverContent = {
        ...(data !== undefined && { modelTurn: { parts: [{ inlineData: { mimeType: AUDIO_MIME, data } }] } }),
        ...(piece !== undefined && { outputTranscription: { text: piece } }),
      };
      messages.push({ paced: true, body: { serverContent } });
    }
  } else {
    for (const piece of shape.pieces) messages.push({ paced: true, body: { serverContent: { modelTurn: { parts: [{ text: piece }] } } } });
  }
  if (reply.calls.length > 0) {
    messages.push({ body: { toolCall: { functionCalls: reply.calls } }, paced: true });
    messages.push({ body: { usageMetadata } });
    return messages;
  }
  messages.push({ body: { serverContent: { generationComplete: true } } });
  messages.push({ body: { serverContent: { turnComplete: true }, usageMetadata } });
  return messages;
}

/** The messages that end a turn cut short by the user's speech or a new turn. */
export function interruptedMessages(): LiveMessage[] {
  return [{ body: { serverContent: { interrupted: true } } }, { body: { serverContent: { turnComplete: true } } }];
}

/** A close frame's reason holds at most 123 bytes. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}
