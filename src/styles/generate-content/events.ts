// The generate-content stream: every event a complete GenerateContentResponse holding only the new
// parts (WIRE.md section 5). Usage rides on every chunk as a running total that reaches the whole
// reply's figures on the last chunk; each candidate's last chunk carries its finishReason, and a
// piece of text its own tokens' logprobs when they are asked (together the whole answer's).
import type { StreamEvent } from '../../conversation/plan.js';
import type { ChatRequest, Reply, ReplyChoice } from '../../conversation/types.js';
import { blockedPrompt, callParts, contentOf, envelopeFields, finishReasonOf, imageParts, logprobsOf, safetyRatings, showsThoughts, shownText, thoughtPart, type WirePart } from './encode.js';
import { promptDetails, usageMetadata } from './usage.js';

interface Piece {
  index: number;
  parts: WirePart[];
  /** Characters of visible output and of shown thoughts this piece adds, for the running usage. */
  output: number;
  thoughts: number;
  /** `logprobsResult` and `avgLogprobs` of this piece's text, when asked. */
  logprobs?: object;
}

function piecesOf(reply: Reply, choice: ReplyChoice, index: number, request: ChatRequest): Piece[] {
  const pieces: Piece[] = [];
  if (showsThoughts(request)) {
    for (const text of choice.reasoningChunks) pieces.push({ index, parts: [thoughtPart(text)], output: 0, thoughts: text.length });
  }
  if (shownText(choice)) {
    let offset = 0;
    for (const text of choice.textChunks) {
      pieces.push({ index, parts: [{ text }], output: text.length, thoughts: 0, logprobs: logprobsOf(request, text, index, offset) });
      offset += text.length;
    }
  }
  if (choice.images.length > 0) pieces.push({ index, parts: imageParts(choice), output: 0, thoughts: 0 });
  // Function calls arrive whole, in one chunk, as the vendor sends them.
  const calls = callParts(reply, choice, index, request);
  if (calls.length > 0) {
    const output = choice.toolCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.arguments).length, 0);
    pieces.push({ index, parts: calls, output, thoughts: 0 });
  }
  return pieces.length > 0 ? pieces : [{ index, parts: [], output: 0, thoughts: 0 }];
}

/** Share of `total` for `done` of `all` characters, never above the whole. */
function share(total: number, done: number, all: number): number {
  return all > 0 ? Math.floor((total * done) / all) : total;
}

export function generateContentEvents(reply: Reply, request: ChatRequest): StreamEvent[] {
  if (reply.promptBlocked) return [{ data: blockedPrompt(reply, request), paced: true }];
  const perChoice = reply.choices.map((choice, index) => piecesOf(reply, choice, index, request));
  const pieces = perChoice.flat();
  const allOutput = pieces.reduce((sum, p) => sum + p.output, 0);
  const allThoughts = pieces.reduce((sum, p) => sum + p.thoughts, 0);
  const details = promptDetails(request, reply.usage.inputTokens);
  const { outputTokens, reasoningTokens } = reply.usage;
  // The same for every chunk: made once a stream, not a chunk (its response id is a base64 of the reply's).
  const envelope = envelopeFields(reply, request);
  let output = 0;
  let thoughts = 0;
  return pieces.map((piece, at) => {
    output += piece.output;
    thoughts += piece.thoughts;
    const choice = reply.choices[piece.index]!;
    const soFar =
      at === pieces.length - 1
        ? undefined
        : { candidates: share(outputTokens, output, allOutput), thoughts: share(reasoningTokens, thoughts, allThoughts) };
    // Keys set in the wire's order, without the conditional spreads a literal would take a chunk.
    const candidate: Record<string, unknown> = { content: contentOf(piece.parts) };
    if (piece === perChoice[piece.index]!.at(-1)) {
      candidate.finishReason = finishReasonOf(choice);
      candidate.safetyRatings = safetyRatings(choice);
    }
    candidate.index = piece.index;
    if (piece.logprobs) Object.assign(candidate, piece.logprobs);
    return { data: { candidates: [candidate], usageMetadata: usageMetadata(reply.usage, details, soFar), ...envelope }, paced: true };
  });
}
