// The pure decoders of the media endpoints: multipart forms back into JSON bodies, video task
// bodies, and chat-completions image_config.
import { describe, expect, it } from 'vitest';
import { MockError } from '../../src/conversation/errors.js';
import { imageOutputOf } from '../../src/styles/chat-completions/image-config.js';
import { unflattenForm } from '../../src/styles/form.js';
import { decodeVideoRequest } from '../../src/styles/videos/decode.js';

function paramOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MockError);
    return (error as MockError).options.param;
  }
  throw new Error('expected a MockError');
}

describe('unflattenForm', () => {
  it('nests bracketed names the way SDKs flatten objects and arrays', () => {
    expect(
      unflattenForm({
        prompt: 'a cat',
        'input_reference[image_url]': 'https://example.com/a.png',
        'tags[]': ['a', 'b'],
        'metadata[content][][type]': ['text', 'image_url'],
        'metadata[content][][text]': 'hello',
        'metadata[watermark]': 'true',
        'list[1]': 'second',
      }),
    ).toEqual({
      prompt: 'a cat',
      input_reference: { image_url: 'https://example.com/a.png' },
      tags: ['a', 'b'],
      metadata: { content: [{ type: 'text', text: 'hello' }, { type: 'image_url' }], watermark: 'true' },
      list: [undefined, 'second'],
    });
  });

  it('keeps odd names as they are', () => {
    expect(unflattenForm({ 'a]b': 'x', '[lead]': 'y' })).toEqual({ 'a]b': 'x', '[lead]': 'y' });
  });
});

describe('decodeVideoRequest', () => {
  it('reads form strings as the numbers and booleans they spell', () => {
    const request = decodeVideoRequest({ prompt: 'p', seconds: '8', watermark: 'false', metadata: '{"ratio":"9:16"}' });
    expect(request).toMatchObject({ prompt: 'p', seconds: '8', ratio: { value: '9:16', field: 'metadata.ratio' } });
  });

  it('lets top-level fields win over their metadata copies', () => {
    const request = decodeVideoRequest({ prompt: 'p', seconds: 12, ratio: '16:9', metadata: { seconds: '5', ratio: '1:1' } });
    expect(request.seconds).toBe('12');
    expect(request.ratio).toEqual({ value: '16:9', field: 'ratio' });
  });

  it('names the field of a bad value, nested ones included', () => {
    expect(paramOf(() => decodeVideoRequest({ prompt: 'p', camera_fixed: 'maybe' }))).toBe('camera_fixed');
    expect(paramOf(() => decodeVideoRequest({ prompt: 'p', metadata: { content: [{ type: 'text' }] } }))).toBe('metadata.content[0].text');
    expect(paramOf(() => decodeVideoRequest({}))).toBe('prompt');
  });
});

describe('chat-completions imageOutputOf', () => {
  it('reads extra_body first, then a vendor block at the top level, with the fields to name', () => {
    expect(imageOutputOf({ extra_body: { google: { image_config: { aspect_ratio: '4:3', image_size: '2K' } } } })).toEqual({
      aspectRatio: '4:3',
      imageSize: '2K',
      withText: false,
      fields: { aspectRatio: 'extra_body.google.image_config.aspect_ratio', imageSize: 'extra_body.google.image_config.image_size' },
    });
    expect(imageOutputOf({ google: { image_config: {} }, modalities: ['image', 'text'] })).toMatchObject({ withText: true });
  });

  it('asks for a picture when modalities names image, and for nothing otherwise', () => {
    expect(imageOutputOf({ modalities: ['image'] })).toEqual({ withText: false });
    expect(imageOutputOf({ modalities: ['text'] })).toBeUndefined();
    expect(imageOutputOf({ model: 'x', messages: [] })).toBeUndefined();
  });

  it('refuses camelCase and non-string values, naming the key', () => {
    expect(paramOf(() => imageOutputOf({ extra_body: { google: { imageConfig: {} } } }))).toBe('extra_body.google.imageConfig');
    expect(paramOf(() => imageOutputOf({ google: { image_config: { imageSize: '1K' } } }))).toBe('google.image_config.imageSize');
    expect(paramOf(() => imageOutputOf({ google: { image_config: { aspect_ratio: 16 } } }))).toBe('google.image_config.aspect_ratio');
    expect(paramOf(() => imageOutputOf({ google: { image_config: 'wide' } }))).toBe('google.image_config');
  });
});
