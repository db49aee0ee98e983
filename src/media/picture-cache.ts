// Pictures rendered lately, by what decides their bytes (format, quality, size, seed): the same
// prompt at the same size is the same picture, so asking for it again costs nothing.
import { RecentBytes } from './recent-bytes.js';

interface Picture {
  readonly data: Uint8Array;
}

const recent = new RecentBytes<Picture>('pictures', 16, 16 * 1024 * 1024);

export function rendered<P extends Picture>(key: string, make: () => Promise<P>): Promise<P> {
  return recent.remembered(key, make) as Promise<P>;
}
