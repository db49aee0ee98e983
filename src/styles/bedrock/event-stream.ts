// AWS's event-stream framing (Bedrock's streams): each event one binary message of prelude,
// headers, payload and both CRC32s, through the AWS libraries' own codec. An event named like an
// exception (`throttlingException`) is an exception message, as AWS sends errors mid-stream. The
// writer's framer encodes with it; a relayed upstream's stream is read back with it.
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const text = (value: string) => ({ type: 'string' as const, value });

export function awsEventMessage(name: string | undefined, data: string): Uint8Array {
  const exception = name !== undefined && name.endsWith('Exception');
  return codec.encode({
    headers: {
      ':message-type': text(exception ? 'exception' : 'event'),
      [exception ? ':exception-type' : ':event-type']: text(name ?? ''),
      ':content-type': text('application/json'),
    },
    body: fromUtf8(data),
  });
}

/** An upstream's event-stream read as it arrives: each whole message as its event name and payload text. */
export class EventStreamReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`; a message's first four bytes are its total length. */
  feed(chunk: Uint8Array): Array<{ event: string; data: string }> {
    this.pending = Buffer.concat([this.pending, chunk]);
    const messages: Array<{ event: string; data: string }> = [];
    while (this.pending.length >= 4 && this.pending.length >= this.pending.readUInt32BE(0)) {
      const length = this.pending.readUInt32BE(0);
      const { headers, body } = codec.decode(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
      const name = headers[':event-type'] ?? headers[':exception-type'];
      messages.push({ event: typeof name?.value === 'string' ? name.value : '', data: toUtf8(body) });
    }
    return messages;
  }
}
