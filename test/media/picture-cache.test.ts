// A picture asked for again is the one made before, bytes shared, so the sessions keeping it hold
// one copy; past the cache's bound it is made anew, the same bytes.
import { describe, expect, it } from 'vitest';
import { renderPictureAs } from '../../src/media/formats.js';
import { renderPicture } from '../../src/media/images.js';

const SIZE = { width: 64, height: 48 };

describe('recently rendered pictures', () => {
  it('are shared between requests for the same picture, in every format', async () => {
    const png = await renderPicture(SIZE, 'a|lighthouse|0');
    expect((await renderPicture(SIZE, 'a|lighthouse|0')).data).toBe(png.data);
    expect((await renderPictureAs(SIZE, 'a|lighthouse|0', 'png')).data).toBe(png.data);
    const jpeg = await renderPictureAs(SIZE, 'a|lighthouse|0', 'jpeg', 80);
    expect((await renderPictureAs(SIZE, 'a|lighthouse|0', 'jpeg', 80)).data).toBe(jpeg.data);
    expect((await renderPictureAs(SIZE, 'a|lighthouse|0', 'jpeg', 50)).data).not.toEqual(jpeg.data);
    expect((await renderPicture(SIZE, 'a|harbour|0')).data).not.toEqual(jpeg.data);
  });

  it('are made again, byte for byte, once others pushed them out', async () => {
    const first = (await renderPicture(SIZE, 'b|first|0')).data;
    for (let index = 0; index < 20; index += 1) await renderPicture(SIZE, `b|other|${index}`);
    const again = (await renderPicture(SIZE, 'b|first|0')).data;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
