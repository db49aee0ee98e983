// Messages-style turns -> neutral turns. Each tool result becomes a `tool` turn of its own, placed
// before the rest of its user message, as chat-completions sends them, so one conversation counts
// the same input tokens in every style. The vendor's pairing rules for tool calls are kept.
import type { Part, SystemAt, Turn } from '../../conversation/types.js';
import { urlPart } from '../media.js';
import type { ContentBlock, DocumentBlock, ImageBlock, ToolResultBlock, ToolResultContent } from './blocks.js';
import { badField } from './wording.js';

export interface MessageParam {
  role: 'user' | 'assistant' | 'system';
  content: string | ContentBlock[];
}

const ONLY_IN: Partial<Record<ContentBlock['type'], MessageParam['role']>> = {
  tool_result: 'user',
  tool_use: 'assistant',
  thinking: 'assistant',
  redacted_thinking: 'assistant',
};

function noFiles(field: string): never {
  throw badField(`${field}.source`, 'file sources are not supported by this gateway; send the data as base64 or by url.');
}

function imagePart(block: ImageBlock, field: string): Part {
  const source = block.source;
  if (source.type === 'file') noFiles(field);
  return source.type === 'base64' ? { kind: 'media', mimeType: source.media_type, data: source.data } : urlPart(source.url);
}

function documentParts(block: DocumentBlock, field: string): Part[] {
  const source = block.source;
  switch (source.type) {
    case 'base64':
      return [{ kind: 'media', mimeType: source.media_type, data: source.data }];
    case 'url':
      return [urlPart(source.url, 'application/pdf')];
    case 'text':
      return [{ kind: 'text', text: source.data }];
    case 'content':
      if (typeof source.content === 'string') return [{ kind: 'text', text: source.content }];
      return source.content.map((inner, i) => (inner.type === 'text' ? { kind: 'text', text: inner.text } : imagePart(inner, `${field}.source.content[${i}]`)));
    case 'file':
      return noFiles(field);
  }
}

/** Text, media and search results: the blocks that read the same in a user turn and inside a tool result. */
function readableParts(block: ContentBlock | ToolResultContent, field: string): Part[] {
  if (block.type === 'text') return [{ kind: 'text', text: block.text }];
  if (block.type === 'image') return [imagePart(block, field)];
  if (block.type === 'document') return documentParts(block, field);
  if (block.type === 'search_result') return block.content.map((inner) => ({ kind: 'text', text: inner.text }));
  return [];
}

function toolTurn(block: ToolResultBlock, name: string | undefined, field: string): Turn {
  const inner = typeof block.content === 'string' ? [{ kind: 'text' as const, text: block.content }] : (block.content ?? []).flatMap((b, i) => readableParts(b, `${field}.content[${i}]`));
  const content = inner.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n');
  return { role: 'tool', parts: [{ kind: 'tool_result', callId: block.tool_use_id, name, content }, ...inner.filter((part) => part.kind === 'media')] };
}

function assistantTurn(blocks: ContentBlock[]): Turn {
  const parts = blocks.flatMap((block): Part[] => {
    if (block.type === 'thinking') return [{ kind: 'reasoning', text: block.thinking }];
    if (block.type === 'tool_use') return [{ kind: 'tool_call', id: block.id, name: block.name, arguments: block.input }];
    if (block.type === 'text') return [{ kind: 'text', text: block.text }];
    return [];
  });
  return { role: 'assistant', parts };
}

function toolUseIds(message: MessageParam | undefined): string[] {
  if (message?.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

function toolResultIds(message: MessageParam | undefined): string[] {
  if (message?.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []));
}

/** Every tool_use is answered in the next message, and every tool_result answers the previous one. */
function checkPairing(messages: readonly MessageParam[]): void {
  // A system instruction between a call and its result leaves the pair a pair.
  let previous: MessageParam | undefined;
  messages.forEach((message, i) => {
    if (message.role === 'system') return;
    const asked = toolUseIds(previous);
    previous = message;
    const answered = toolResultIds(message);
    const stray = answered.find((id) => !asked.includes(id));
    if (stray !== undefined) {
      throw badField(
        `messages[${i}].content`,
        `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    const unanswered = asked.filter((id) => !answered.includes(id));
    if (unanswered.length > 0) {
      throw badField(
        `messages[${i}]`,
        `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  });
}

function checkBlocks(message: MessageParam, index: number, last: boolean): void {
  const empty = message.content.length === 0;
  if (empty && !(last && message.role === 'assistant')) {
    throw badField(`messages[${index}]`, 'all messages must have non-empty content except for the optional final assistant message');
  }
  if (typeof message.content === 'string') return;
  message.content.forEach((block, j) => {
    if (message.role === 'system' && block.type !== 'text') {
      throw badField(`messages[${index}].content[${j}].type`, 'system messages may only contain `text` blocks');
    }
    const only = ONLY_IN[block.type];
    if (only && only !== message.role) {
      throw badField(`messages[${index}].content[${j}]`, `\`${block.type}\` blocks are only allowed in ${only} messages`);
    }
  });
}

/**
 * The turns of a conversation, and the system instructions given inside it (`SystemMessageParam`):
 * those before the first turn join the top-level ones, the others keep the turn they follow.
 */
export function toTurns(messages: readonly MessageParam[]): { turns: Turn[]; system: string[]; systemAt: SystemAt[] } {
  checkPairing(messages);
  const turns: Turn[] = [];
  const system: string[] = [];
  const systemAt: SystemAt[] = [];
  const toolNames = new Map<string, string>();
  messages.forEach((message, i) => {
    checkBlocks(message, i, i === messages.length - 1);
    const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (message.role === 'system') {
      const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      if (turns.length === 0) system.push(text);
      else systemAt.push({ turn: turns.length, text });
    } else if (message.role === 'assistant') {
      for (const block of blocks) if (block.type === 'tool_use') toolNames.set(block.id, block.name);
      turns.push(assistantTurn(blocks));
    } else {
      const parts: Part[] = [];
      blocks.forEach((block, j) => {
        const field = `messages[${i}].content[${j}]`;
        if (block.type === 'tool_result') turns.push(toolTurn(block, toolNames.get(block.tool_use_id), field));
        else parts.push(...readableParts(block, field));
      });
      if (parts.length > 0) turns.push({ role: 'user', parts });
    }
  });
  return { turns, system, systemAt };
}
