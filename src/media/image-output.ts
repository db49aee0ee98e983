// Image output in the chat styles, the same for every style: the request asks for it
// (`request.imageOutput`) or names an image model; the pictures go into each choice's `images`,
// which each style encodes its own way. `images:` fixtures apply here as on the images endpoints.
import { failure, invalid } from '../conversation/errors.js';
import { countTokens } from '../conversation/tokens.js';
import type { ChatRequest, Reply, ReplyChoice, StyleName } from '../conversation/types.js';
import type { ModelEntry } from '../config/types.js';
import { CHAT_IMAGE_TOKENS, type Picture } from './images.js';
import { checkPictureCount, geminiImageSize, type Size } from './sizes.js';

export interface ImageOutput {
  size: Size;
  withText: boolean;
  stream: boolean;
  /** The model's `chat_image_output` where the style can carry pictures as Markdown text (only the gateway's image form). */
  markdown?: ModelEntry['chatImageOutput'];
}

function sizeOf(request: ChatRequest): Size {
  const asked = request.imageOutput;
  const fields = asked?.fields ?? { aspectRatio: 'aspectRatio', imageSize: 'imageSize' };
  try {
    geminiImageSize(asked?.aspectRatio);
  } catch (error) {
    throw invalid(`Invalid value for '${fields.aspectRatio}': ${(error as Error).message}.`, fields.aspectRatio);
  }
  let size: Size;
  try {
    size = geminiImageSize(asked?.aspectRatio, asked?.imageSize);
  } catch (error) {
    throw invalid(`Invalid value for '${fields.imageSize}': ${(error as Error).message}.`, fields.imageSize);
  }
  // A picture per choice: the choices' field is the style's own.
  const count = request.style === 'generate-content' ? 'generationConfig.candidateCount' : 'n';
  try {
    checkPictureCount(request.choices, size);
  } catch (error) {
    throw invalid(`Invalid value for '${count}': ${(error as Error).message}.`, count);
  }
  return size;
}

/** The chat style that is the gateway's own image form (SPEC section 3), and how a client asks it for pictures. */
export interface GatewayImages {
  style: StyleName;
  asked: string;
}

/**
 * The one rule for keys whose group may generate images only through the gateway's image form
 * (SPEC section 3): a 403 from anywhere else, `elsewhere` naming where they tried.
 */
export function requireGatewayImages(gateway: GatewayImages, group: string | undefined, gatewayOnlyGroups: readonly string[], elsewhere: string): void {
  if (group === undefined || !gatewayOnlyGroups.includes(group)) return;
  throw failure(
    'image_generation_not_allowed',
    `Keys of the group "${group}" may generate images only through the ${gateway.style} style (${gateway.asked}), not through ${elsewhere}.`,
  );
}

/**
 * The image output of a chat request, checked before anything is decided: a key whose group may
 * generate images only through the gateway's image form gets 403 elsewhere (SPEC section 3).
 * An image model without an explicit request answers as the vendors do by default: the picture
 * alone in the gateway's form, text beside it in the other styles.
 */
export function imageOutputOf(
  request: ChatRequest,
  model: ModelEntry,
  gateway: GatewayImages,
  group: string | undefined,
  gatewayOnlyGroups: readonly string[],
): ImageOutput | undefined {
  const gatewayForm = request.style === gateway.style;
  const asked = request.imageOutput ?? (model.kind === 'image' ? { withText: !gatewayForm } : undefined);
  if (!asked) return undefined;
  if (!gatewayForm) requireGatewayImages(gateway, group, gatewayOnlyGroups, `the ${request.style} style`);
  return {
    size: sizeOf(request),
    withText: asked.withText,
    stream: request.stream,
    markdown: gatewayForm ? model.chatImageOutput : undefined,
  };
}

function markdown(picture: Picture): string {
  return `![image](data:${picture.mimeType};base64,${picture.data.toString('base64')})`;
}

/**
 * One picture per choice (`made`, one per choice). `chatImageOutput` is the answering chat
 * fixture's own setting, if it has one. A generated reply to a picture-only request has no text (`content` is
 * an empty string, as the gateway's sample shows); a fixture's text is kept. With
 * `chat_image_output: markdown` (fixture, else model) the chat-completions style carries the
 * picture as a Markdown data URL in its text instead, whole and streamed.
 */
export function withImages(
  output: ImageOutput,
  made: readonly Picture[],
  chatImageOutput: ModelEntry['chatImageOutput'] | undefined,
  reply: Reply,
): Reply {
  const asMarkdown = output.markdown !== undefined && (chatImageOutput ?? output.markdown) === 'markdown';
  const blank = reply.fixture === undefined && !output.withText;
  let outputTokens = reply.usage.outputTokens + made.length * CHAT_IMAGE_TOKENS;
  const choices = reply.choices.map((choice, index): ReplyChoice => {
    const picture = made[index]!;
    if (blank) outputTokens -= countTokens(choice.text);
    const text = blank ? '' : choice.text;
    const textChunks = blank ? [] : choice.textChunks;
    const finishReason = blank && choice.finishReason === 'length' ? 'stop' : choice.finishReason;
    if (!asMarkdown) {
      return { ...choice, text, textChunks, finishReason, images: [{ mimeType: picture.mimeType, data: picture.data.toString('base64') }] };
    }
    const image = text ? `\n${markdown(picture)}` : markdown(picture);
    return { ...choice, text: text + image, textChunks: output.stream ? [...textChunks, image] : [], finishReason, images: [] };
  });
  return { ...reply, choices, usage: { ...reply.usage, outputTokens } };
}
