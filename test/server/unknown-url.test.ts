import { describe, expect, it } from 'vitest';
import { familyOf, meantPath, unknownUrlMessage } from '../../src/server/unknown-url.js';

const KNOWN = new Set(['/v1/chat/completions', '/v1/messages', '/v1/models', '/v1beta/models', '/v1beta/models/gemini-2.5-flash:generateContent', '/v1/models/gemini-2.5-flash:generateContent']);
const known = (path: string) => KNOWN.has(path);

describe('an unknown URL', () => {
  it('belongs to the family of its path', () => {
    expect(familyOf('/models/gemini-2.5-flash:generateContent').style.name).toBe('generate-content');
    expect(familyOf('/v1beta/cachedContents').style.name).toBe('generate-content');
    expect(familyOf('/v2/models/x:streamGenerateContent/').style.name).toBe('generate-content');
    expect(familyOf('/v1/messages/batches/x/oops').style.name).toBe('messages');
    expect(familyOf('/messages').style.name).toBe('messages');
    expect(familyOf('/v1/v1/messages').style.name).toBe('messages');
    expect(familyOf('/v1/assistants').style.name).toBe('chat-completions');
    expect(familyOf('/chat/completions').style.name).toBe('chat-completions');
  });

  it('names the route a client probably meant: its prefix missing or doubled', () => {
    expect(meantPath('/models/gemini-2.5-flash:generateContent', known)).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(meantPath('/chat/completions', known)).toBe('/v1/chat/completions');
    expect(meantPath('/v1/v1/chat/completions', known)).toBe('/v1/chat/completions');
    expect(meantPath('/models', known)).toBe('/v1/models');
    expect(meantPath('/v1/nothing', known)).toBeUndefined();
  });

  it('says so in the message', () => {
    expect(unknownUrlMessage('POST', '/models/gemini-2.5-flash:generateContent', known)).toBe(
      'Unknown request URL: POST /models/gemini-2.5-flash:generateContent. Did you mean POST /v1beta/models/gemini-2.5-flash:generateContent? The client calling it looks misconfigured: its base URL is missing /v1beta.',
    );
    expect(unknownUrlMessage('POST', '/v1/v1/messages', known)).toContain('its base URL repeats /v1.');
    expect(unknownUrlMessage('GET', '/v1/nothing', known)).toBe('Unknown request URL: GET /v1/nothing.');
  });
});
