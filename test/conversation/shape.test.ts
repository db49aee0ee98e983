// The shape a recorded agent turn replays by: the same session from another directory on another
// day has the same shape; another path through the tools, another instruction or another
// position does not.
import { describe, expect, it } from 'vitest';
import { conversationShape } from '../../src/conversation/shape.js';
import type { Turn } from '../../src/conversation/types.js';
import { chatRequest } from '../helpers/chat-request.js';

function session(dir: string, date: string, calls: Array<[string, Record<string, unknown>]>, instruction = 'Create hello.txt saying hi'): Turn[] {
  const turns: Turn[] = [
    {
      role: 'user',
      parts: [
        { kind: 'text', text: `<system-reminder>\nWorking directory: ${dir}\nToday's date is ${date}.\n</system-reminder>` },
        { kind: 'text', text: instruction },
      ],
    },
  ];
  calls.forEach(([name, args], i) => {
    turns.push(
      { role: 'assistant', parts: [{ kind: 'tool_call', id: `${dir}-${i}`, name, arguments: args }] },
      {
        role: 'user',
        parts: [
          { kind: 'tool_result', callId: `${dir}-${i}`, content: `File created successfully at: ${dir}/hello.txt` },
          { kind: 'text', text: `<system-reminder>It is ${date}</system-reminder>` },
        ],
      },
    );
  });
  return turns;
}

const shapeOf = (turns: Turn[], model = 'claude-opus-4-8') => conversationShape(chatRequest({ model, system: `cwd ${turns.length}`, turns }));

describe('the shape of a conversation', () => {
  it('is the same from another directory, on another day, with other call ids and results', () => {
    const here = shapeOf(session('/home/ana/work/repo', '2026-11-29', [['Write', { file_path: '/home/ana/work/repo/hello.txt', content: 'hi' }]]));
    const there = shapeOf(session('/tmp/ci-42/checkout', '2027-01-03', [['Write', { content: 'hi', file_path: '/tmp/ci-42/checkout/hello.txt' }]]));
    expect(there).toBe(here);
    expect(here).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs when the agent took another path, another instruction, another position or model', () => {
    const base = shapeOf(session('/a/b', '2026-11-29', [['Write', { file_path: 'hello.txt', content: 'hi' }]]));
    expect(shapeOf(session('/a/b', '2026-11-29', [['Write', { file_path: 'hello.txt', content: 'bye' }]]))).not.toBe(base);
    expect(shapeOf(session('/a/b', '2026-11-29', [['Read', { file_path: 'hello.txt' }]]))).not.toBe(base);
    expect(shapeOf(session('/a/b', '2026-11-29', []))).not.toBe(base);
    expect(shapeOf(session('/a/b', '2026-11-29', [['Write', { file_path: 'hello.txt', content: 'hi' }]], 'Create bye.txt'))).not.toBe(base);
    expect(shapeOf(session('/a/b', '2026-11-29', [['Write', { file_path: 'hello.txt', content: 'hi' }]]), 'claude-haiku-4-5')).not.toBe(base);
    const later = [...session('/a/b', '2026-11-29', [['Write', { file_path: 'hello.txt', content: 'hi' }]]), { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'Create hello.txt saying hi' }] }];
    expect(shapeOf(later)).not.toBe(base);
  });
});
