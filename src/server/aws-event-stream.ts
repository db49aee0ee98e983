// AWS's event-stream framing (Bedrock's streams): each event one binary message of prelude,
// headers, payload and both CRC32s, encoded by the AWS libraries' own codec. An event named like
// an exception (`throttlingException`) is sent as an exception message, as AWS sends errors mid-stream.
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
