// The admin API of a mock running elsewhere, over HTTP: what the stdio MCP bridge talks to.
import type { AdminClient } from './client.js';
import { definedQuery } from './client.js';

export class AdminUnreachable extends Error {}

export function httpAdmin(baseUrl: string, token?: string): AdminClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async call(method, path, call = {}) {
      const query = new URLSearchParams(definedQuery(call.query)).toString();
      const url = `${base}/__admin${path}${query ? `?${query}` : ''}`;
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(url, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
      } catch (error) {
        const cause = (error as Error).cause;
        const why = cause instanceof Error ? cause.message : (error as Error).message;
        throw new AdminUnreachable(`The mock at ${base} cannot be reached (${why}). Is it running, and is --url its address?`);
      }
      const text = await response.text();
      const json = (response.headers.get('content-type') ?? '').includes('json');
      return { status: response.status, body: json && text ? JSON.parse(text) : text };
    },
  };
}
