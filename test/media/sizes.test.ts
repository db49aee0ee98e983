import { describe, expect, it } from 'vitest';
import {
  GEMINI_ASPECT_RATIOS,
  GEMINI_IMAGE_SIZES,
  geminiImageSize,
  parseImageSize,
  videoSize,
} from '../../src/media/sizes.js';

describe('parseImageSize', () => {
  it('uses the default when no size is sent, and 1024x1024 for auto', () => {
    expect(parseImageSize(undefined)).toEqual({ width: 1024, height: 1024 });
    expect(parseImageSize(undefined, '1536x1024')).toEqual({ width: 1536, height: 1024 });
    expect(parseImageSize('auto')).toEqual({ width: 1024, height: 1024 });
  });

  it.each([
    ['1024x1536', 1024, 1536],
    ['1792x1024', 1792, 1024],
    ['256x256', 256, 256],
    ['64x4096', 64, 4096],
    ['4096x4096', 4096, 4096],
  ])('reads %s', (size, width, height) => {
    expect(parseImageSize(size)).toEqual({ width, height });
  });

  it.each(['63x64', '64x4097', '0x0', '1024', '1024X1024', '1024 x 1024', ' 1024x1024', '1.5x2', '-64x64', 'big', ''])(
    'refuses %j, saying what it accepts',
    (size) => {
      expect(() => parseImageSize(size)).toThrow(/"auto" or WIDTHxHEIGHT .* 64 to 4096/);
      expect(() => parseImageSize(size)).toThrow(JSON.stringify(size));
    },
  );
});

describe('geminiImageSize', () => {
  // The vendor's 1K table, written out again here so the test does not trust the module's copy.
  const table: Record<string, [number, number]> = {
    '1:1': [1024, 1024],
    '16:9': [1344, 768],
    '9:16': [768, 1344],
    '4:3': [1184, 864],
    '3:4': [864, 1184],
    '3:2': [1248, 832],
    '2:3': [832, 1248],
    '5:4': [1152, 896],
    '4:5': [896, 1152],
    '21:9': [1536, 672],
  };

  it('knows exactly the ten published ratios and three sizes', () => {
    expect([...GEMINI_ASPECT_RATIOS].sort()).toEqual(Object.keys(table).sort());
    expect(GEMINI_IMAGE_SIZES).toEqual(['1K', '2K', '4K']);
  });

  for (const [ratio, [width, height]] of Object.entries(table)) {
    it(`gives ${ratio} as ${width}x${height} at 1K, doubled at 2K, quadrupled at 4K`, () => {
      expect(geminiImageSize(ratio, '1K')).toEqual({ width, height });
      expect(geminiImageSize(ratio)).toEqual({ width, height });
      expect(geminiImageSize(ratio, '2K')).toEqual({ width: width * 2, height: height * 2 });
      expect(geminiImageSize(ratio, '4K')).toEqual({ width: width * 4, height: height * 4 });
    });
  }

  it('defaults to 1:1 at 1K', () => {
    expect(geminiImageSize()).toEqual({ width: 1024, height: 1024 });
    expect(geminiImageSize(undefined, '2K')).toEqual({ width: 2048, height: 2048 });
  });

  it.each(['7:3', '16/9', '16:10', ''])('refuses the ratio %j, listing the allowed ones', (ratio) => {
    expect(() => geminiImageSize(ratio)).toThrow(/aspect ratio must be one of 1:1, 16:9, .*21:9/);
  });

  it.each(['1k', '8K', '1024', ''])('refuses the size %j, listing the allowed ones', (size) => {
    expect(() => geminiImageSize('1:1', size)).toThrow(/image size must be one of 1K, 2K, 4K/);
  });
});

describe('videoSize', () => {
  it('defaults to 1280x720', () => {
    expect(videoSize()).toEqual({ width: 1280, height: 720, size: '1280x720' });
  });

  it.each([
    ['720x1280', 720, 1280],
    ['1280x720', 1280, 720],
    ['1024x1792', 1024, 1792],
    ['1792x1024', 1792, 1024],
    ['1920x1080', 1920, 1080],
  ])('accepts the size %s', (size, width, height) => {
    expect(videoSize(size)).toEqual({ width, height, size });
  });

  it.each([
    ['16:9', '720p', '1280x720'],
    ['9:16', '720p', '720x1280'],
    ['16:9', '1080p', '1920x1080'],
    ['9:16', '1080P', '1080x1920'],
    ['16:9', '480p', '854x480'],
    ['1:1', '720p', '720x720'],
    ['4:3', '1080p', '1440x1080'],
    ['3:4', '480p', '480x640'],
    ['9:16', undefined, '720x1280'],
    [undefined, '1080p', '1920x1080'],
  ])('turns ratio %s at %s into %s', (ratio, resolution, size) => {
    const result = videoSize(undefined, ratio, resolution);
    expect(result.size).toBe(size);
    expect(`${result.width}x${result.height}`).toBe(size);
    expect(result.width % 2 + (result.height % 2)).toBe(0);
  });

  it('lets an explicit size win over a ratio', () => {
    expect(videoSize('720x1280', '16:9', '1080p').size).toBe('720x1280');
  });

  it('refuses unknown values, listing the allowed ones', () => {
    expect(() => videoSize('1000x1000')).toThrow(/size must be one of 720x1280, 1280x720, 1024x1792, 1792x1024/);
    expect(() => videoSize('')).toThrow(/size must be one of/);
    expect(() => videoSize(undefined, '2:1')).toThrow(/ratio must be one of 16:9, 9:16/);
    expect(() => videoSize(undefined, '16:9', '4k')).toThrow(/resolution must be one of 480p, 720p, 1080p; got "4k"/);
  });
});
