// An openai client for one session of a test server, optionally under a scenario, with retries
// off so that every request a test makes is one request the mock sees.
import OpenAI from 'openai';

export function openaiFor(url: string, session: string, scenario?: string): OpenAI {
  return new OpenAI({
    baseURL: `${url}/v1`,
    apiKey: 'sk-test',
    maxRetries: 0,
    defaultHeaders: { 'x-mock-session': session, ...(scenario ? { 'x-mock-scenario': scenario } : {}) },
  });
}
