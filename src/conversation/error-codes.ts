// The catalogue of the mock's errors: the kinds every style maps to its envelope, and every `code`
// the mock answers with, its kind (and so its status, unless a style says otherwise) and what it
// means. A code not listed here does not compile; docs/errors.md lists the same table, and a test
// keeps the two in step.

export const ERROR_KINDS = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'too_large',
  'rate_limit',
  'server_error',
  'overloaded',
  'timeout',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The status a kind gets unless its style says otherwise (messages: overloaded is 529). */
export const DEFAULT_STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  rate_limit: 429,
  server_error: 500,
  overloaded: 503,
  timeout: 504,
};


interface CodeEntry {
  kind: ErrorKind;
  meaning: string;
}

export const ERROR_CODES = {
  unknown_url: { kind: 'not_found', meaning: 'No endpoint answers this method and path.' },
  invalid_http: { kind: 'invalid_request', meaning: "Node's HTTP parser refused the request: a bad request line, header or Content-Length." },
  invalid_json: { kind: 'invalid_request', meaning: 'The body is not valid JSON.' },
  invalid_body: { kind: 'invalid_request', meaning: 'The body cannot be read: not an object, a bad encoding, a broken form, or nested past 128 levels.' },
  missing_required_parameter: { kind: 'invalid_request', meaning: 'A required field (named in `param`) is missing.' },
  invalid_value: { kind: 'invalid_request', meaning: 'A field (named in `param`) holds a value the endpoint does not take.' },
  invalid_content_type: { kind: 'invalid_request', meaning: 'The endpoint takes another content type (image edits need multipart/form-data).' },
  invalid_size: { kind: 'invalid_request', meaning: 'An image `size` the endpoint cannot render.' },
  invalid_model: { kind: 'invalid_request', meaning: 'The model exists but is of another kind than the endpoint takes (a chat model for images, say).' },
  invalid_image_file: { kind: 'invalid_request', meaning: 'An uploaded file is not a PNG, JPEG, WebP or GIF picture.' },
  invalid_file: { kind: 'invalid_request', meaning: 'A video reference upload is neither a picture nor an MP4 clip.' },
  invalid_audio_file: { kind: 'invalid_request', meaning: 'A transcription upload is empty, or of no kind the endpoint takes (by its extension, else its content; the message lists the kinds).' },
  generation_budget_exceeded: { kind: 'invalid_request', meaning: 'A schema the reply is generated from (structured output, a required tool) asks for more than the generation budget; `param` names the schema path.' },
  invalid_fixtures: { kind: 'invalid_request', meaning: 'A document posted to /__admin/fixtures is not a valid fixtures file.' },
  invalid_fixture_file: { kind: 'invalid_request', meaning: 'The file fixtures are saved to (a pinned request, or a document posted with ?file=) is not a plain NAME.yaml (a `..`, an absolute path, a folder).' },
  request_not_pinnable: { kind: 'invalid_request', meaning: 'The journal entry is not a chat request in one of the four styles, nothing was answered to it, or the fixture it gives would not load (a bound passed), so it cannot become a fixture.' },
  fixture_file_exists: { kind: 'invalid_request', meaning: 'The file fixtures are saved to exists already (answered 409; the file is left unchanged).' },
  scenario_not_found: { kind: 'invalid_request', meaning: 'A scenario named by header, query, key or admin call is not loaded.' },
  video_not_ready: { kind: 'invalid_request', meaning: "A video's content, or a remix, edit or extension of it, was asked for before the task completed." },
  task_not_exist: { kind: 'invalid_request', meaning: 'The gateway task form does not know this task id (the gateway answers 400, not 404).' },
  response_not_cancellable: { kind: 'invalid_request', meaning: 'A cancel of a response that is not a background one, or that has already completed.' },
  batch_not_cancellable: { kind: 'invalid_request', meaning: 'A cancel of a batch that has already finished validating and running (answered 409 by the OpenAI form).' },
  batch_not_ended: { kind: 'invalid_request', meaning: 'A message batch still in progress cannot be deleted, and has no results yet: it must end or be cancelled first.' },
  model_not_found: { kind: 'not_found', meaning: 'The model is not in the catalog; the message lists the known ids.' },
  mcp_server_not_found: { kind: 'not_found', meaning: 'No fake MCP server of this name is declared in the fixtures (`mcp:`); the message lists the servers there are.' },
  chat_model_not_supported: { kind: 'not_found', meaning: 'A chat model sent to the legacy `/v1/completions` (the vendor answers 404 and points to `/v1/chat/completions`).' },
  request_not_found: { kind: 'not_found', meaning: 'No journal entry of any session has this id.' },
  fixture_not_found: { kind: 'not_found', meaning: 'With --strict, no fixture matches; the message names the closest and its failed keys.' },
  image_not_found: { kind: 'not_found', meaning: 'A picture URL that is unknown or has aged out.' },
  video_not_found: { kind: 'not_found', meaning: 'No video task with this id in the session.' },
  character_not_found: { kind: 'not_found', meaning: 'No video character with this id in the session.' },
  previous_response_not_found: { kind: 'not_found', meaning: '`previous_response_id` names a response the session does not hold.' },
  response_not_found: { kind: 'not_found', meaning: 'No stored response with this id in the session (never made, deleted or evicted).' },
  item_not_found: { kind: 'not_found', meaning: 'An `item_reference` names an item of no held response.' },
  file_not_found: { kind: 'not_found', meaning: 'No file with this id in the session (never uploaded, or deleted).' },
  batch_not_found: { kind: 'not_found', meaning: 'No batch with this id in the session.' },
  admin_origin_refused: { kind: 'forbidden', meaning: "The admin API answers only the mock's own origin, loopback origins and those given by --admin-origin." },
  admin_host_refused: { kind: 'forbidden', meaning: 'The admin API answers only a Host naming the bound address, localhost, 127.0.0.1, [::1] or an --admin-host name.' },
  admin_content_type: { kind: 'invalid_request', meaning: 'A mutating admin request with a body must declare a JSON content type (answered 415).' },
  file_refused: { kind: 'forbidden', meaning: "A fixture's media file left its directory (a link out, a hard link) or changed since load; its bytes are not served." },
  image_generation_not_allowed: { kind: 'forbidden', meaning: "The key's group may generate images only through the chat-completions style." },
  invalid_api_key: { kind: 'unauthorized', meaning: 'No key, or a key the keys section does not list.' },
  request_too_large: { kind: 'too_large', meaning: 'The body is over --body-limit, or a fixtures document (POST /__admin/fixtures) over the 4 MB of a fixtures file.' },
  session_memory_full: { kind: 'too_large', meaning: "A file (or batch) does not fit in what the session's files and batches may hold (--session-memory-limit)." },
  memory_full: { kind: 'too_large', meaning: 'A file (or batch) does not fit in the overall memory budget beside what other sessions hold (--memory-limit).' },
  rate_limit_exceeded: { kind: 'rate_limit', meaning: 'A scenario step (or a stateful limit) refused the request; retry-after says when to come back.' },
  overloaded: { kind: 'overloaded', meaning: 'A scenario step answered as an overloaded service.' },
  timeout: { kind: 'timeout', meaning: 'A scenario step answered as a timed-out request, after its delay.' },
  upstream_unreachable: { kind: 'server_error', meaning: 'With --upstream, the upstream could not be reached (answered 502, naming its URL).' },
  upstream_timeout: { kind: 'timeout', meaning: "With --upstream, a batch line's forwarded request passed --upstream-timeout-ms (the line's error, naming the upstream's URL)." },
  video_generation_failed: { kind: 'server_error', meaning: "In a failed video task's `error` object: the task failed (a fixture's fail_at)." },
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;
