import { describe, expect, it } from 'vitest';
import { answersToolChoice } from '../../src/conversation/forced-tool.js';

describe('answersToolChoice', () => {
  it('lets any reply answer a request that forces nothing', () => {
    expect(answersToolChoice({ mode: 'auto' }, [])).toBe(true);
    expect(answersToolChoice({ mode: 'none' }, [])).toBe(true);
  });

  it('wants a call for required, of the named tool, or of the allowed ones only', () => {
    expect(answersToolChoice({ mode: 'required' }, [])).toBe(false);
    expect(answersToolChoice({ mode: 'required' }, ['a'])).toBe(true);
    expect(answersToolChoice({ mode: 'tool', name: 'a' }, ['b'])).toBe(false);
    expect(answersToolChoice({ mode: 'tool', name: 'a' }, ['a'])).toBe(true);
    expect(answersToolChoice({ mode: 'required', among: ['a', 'b'] }, ['b'])).toBe(true);
    expect(answersToolChoice({ mode: 'required', among: ['a', 'b'] }, ['b', 'c'])).toBe(false);
  });
});
