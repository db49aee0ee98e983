// What Node's `setHeader` accepts (its `checkIsHttpToken` and `checkInvalidHeaderChar`), kept once:
// a fixture's and a scenario's headers are checked by it at load, and an answer's head spelled by
// the mock (server/answer-head.ts) tests its values by it before Node's own check is needed.

/** A header name: an HTTP token, letters, digits and `!#$%&'*+-.^_`|~`, at least one. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A header value: tabs and visible characters, Latin-1's past 0x7f included; no line breaks or controls. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
