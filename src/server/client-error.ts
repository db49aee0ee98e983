// Requests that Node's HTTP parser refuses before the app sees them (a malformed request line or
// header, a bad Content-Length, headers over the size limit) still get a JSON error body in the
// envelope the mock uses for unknown paths, instead of Node's bare "400 Bad Request".
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { failure } from '../conversation/errors.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function statusFor(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node does: never write into a response already under way on this connection.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = statusFor(error.code);
  const body = JSON.stringify(
    openaiEnvelope(failure('invalid_http', `The HTTP request could not be parsed: ${error.message}.`, { status })).body,
  );
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
