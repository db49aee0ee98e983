// A Realtime conversation as the chat request a turn is answered with: its items in order (typed
// text, the transcript of audio, function calls and their outputs), the session's instructions
// and tools. Pure: the socket keeps the items, this reads them.

export interface RealtimeItem {
  id: string;
  type: 'message' | 'function_call' | 'function_call_output';
  role?: 'user' | 'assistant' | 'system';
  content?: Array<{ type: string; text?: string; transcript?: string | null; audio?: string }>;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string;
}

export interface RealtimeTool {
  type?: string;
  name: string;
  description?: string;
  parameters?: unknown;
}

export interface SessionConfig {
  instructions?: string;
  tools?: RealtimeTool[];
  tool_choice?: unknown;
  output_modalities?: Array<'text' | 'audio'>;
}

function textOf(item: RealtimeItem): string {
  return (item.content ?? []).map((part) => part.text ?? part.transcript ?? '').join('');
}

/**
 * Cuts a spoken item to what played before `endMs` of its `playMs`: its transcript keeps the words
 * heard by then (the mock speaks its words at an even pace), so the model is not told it said what
 * the user never heard.
 */
export function truncatedItem(item: RealtimeItem, endMs: number, playMs: number): RealtimeItem {
  const heard = (transcript: string) => {
    const words = transcript.split(/\s+/).filter(Boolean);
    return words.slice(0, Math.floor((words.length * endMs) / Math.max(1, playMs))).join(' ');
  };
  return { ...item, content: (item.content ?? []).map((part) => (typeof part.transcript === 'string' ? { ...part, transcript: heard(part.transcript) } : part)) };
}

type ChatMessage = Record<string, unknown>;

function messageOf(item: RealtimeItem): ChatMessage {
  switch (item.type) {
    case 'function_call':
      return { role: 'assistant', content: null, tool_calls: [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments ?? '' } }] };
    case 'function_call_output':
      return { role: 'tool', tool_call_id: item.call_id, content: item.output ?? '' };
    default:
      return { role: item.role ?? 'user', content: textOf(item) };
  }
}

/** The chat completion request a turn of `model` is answered with. */
export function chatRequestOf(model: string, session: SessionConfig, items: readonly RealtimeItem[]): Record<string, unknown> {
  const messages = [...(session.instructions ? [{ role: 'system', content: session.instructions }] : []), ...items.map(messageOf)];
  const tools = (session.tools ?? []).filter((tool) => (tool.type ?? 'function') === 'function');
  return {
    model,
    messages,
    ...(tools.length > 0 && {
      tools: tools.map(({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters: parameters ?? { type: 'object', properties: {} } } })),
      ...(session.tool_choice !== undefined && { tool_choice: session.tool_choice }),
    }),
  };
}
