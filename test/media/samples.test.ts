import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pngSize, sniffImageType } from '../../src/media/png.js';

// The committed sample media (made by fixtures/media/make-samples.sh); ffprobe is not assumed to
// be installed where tests run, so these check the container's shape by its bytes.
const read = (name: string): Buffer => readFileSync(new URL(`../../fixtures/media/${name}`, import.meta.url));

describe('sample media', () => {
  it('has a small H.264 MP4 with its index first, so a player can start at once', () => {
    const mp4 = read('sample.mp4');
    expect(mp4.length).toBeLessThan(100 * 1024);
    expect(mp4.toString('latin1', 4, 8)).toBe('ftyp');
    const moov = mp4.indexOf('moov', 0, 'latin1');
    const mdat = mp4.indexOf('mdat', 0, 'latin1');
    expect(moov).toBeGreaterThan(0);
    expect(moov).toBeLessThan(mdat);
    expect(mp4.indexOf('avc1', 0, 'latin1')).toBeGreaterThan(0);
  });

  it('has a WebP thumbnail, a JPEG spritesheet and a PNG picture for the images example', () => {
    expect(sniffImageType(read('sample-thumbnail.webp'))).toBe('image/webp');
    expect(sniffImageType(read('sample-spritesheet.jpg'))).toBe('image/jpeg');
    expect(pngSize(read('sample-image.png'))).toEqual({ width: 256, height: 256 });
  });
});
