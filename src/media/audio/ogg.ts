// Ogg pages (RFC 3533): packets laced into pages, each page with its granule position and CRC.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function crc(page: Buffer): number {
  let value = 0;
  for (const byte of page) value = ((value << 8) ^ CRC_TABLE[((value >>> 24) ^ byte) & 0xff]!) >>> 0;
  return value;
}

export interface OggPage {
  packets: readonly Uint8Array[];
  granule: number;
  first?: boolean;
  last?: boolean;
}

/** One page holding whole packets (each under 255 lacing values in all, as the callers keep them). */
export function oggPage(serial: number, sequence: number, { packets, granule, first, last }: OggPage): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = (first ? 0x02 : 0) | (last ? 0x04 : 0);
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(crc(page), 22);
  return page;
}
