// Calls to the admin API, with the admin token (when the mock wants one) as a bearer token.

const TOKEN_KEY = 'model-gateway-mock.admin-token';
let token = sessionStorage.getItem(TOKEN_KEY) ?? '';

export function hasToken() {
  return token !== '';
}

export function setToken(value) {
  token = value;
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** JSON (or text, for YAML) from `/__admin{path}`; a non-2xx answer throws with the mock's message. */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/__admin${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = response.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, data?.error?.message ?? (typeof data === 'string' && data ? data : `${method} ${path} answered ${response.status}`));
  return data;
}

/** The event stream's URL: an EventSource cannot send headers, so the token rides as `?token=`. */
export function eventsUrl() {
  return token ? `/__admin/events?token=${encodeURIComponent(token)}` : '/__admin/events';
}

export function settings() {
  return fetch('/__admin/ui/settings.json').then((response) => response.json());
}
