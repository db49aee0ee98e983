// The input items of a stored response (`GET /v1/responses/{id}/input_items`): the request's
// `input` as the vendor lists it back, every item with an id and every message's content a list
// of parts, paged by item id like the vendor's cursor lists.
import type { Reply } from '../../conversation/types.js';
import { itemKind, type InputItem } from './schema.js';

type Listed = Record<string, unknown> & { id: string };

function contentList(role: unknown, content: unknown): unknown {
  if (typeof content !== 'string') return content;
  return [role === 'assistant' ? { type: 'output_text', text: content, annotations: [] } : { type: 'input_text', text: content }];
}

/**
 * Items sent without an id get one made from the reply's id and their place; an id the client
 * gave (an item reference, an earlier output item) is kept.
 */
export function inputItemsOf(input: string | InputItem[] | undefined, reply: Pick<Reply, 'id'>): Listed[] {
  const items: Array<Record<string, unknown>> = typeof input === 'string' ? [{ role: 'user', content: input }] : ((input ?? []) as Array<Record<string, unknown>>);
  return items.map((item, index) => {
    const kind = itemKind(item);
    const id = typeof item.id === 'string' && item.id !== '' ? item.id : `${kind === 'message' ? 'msg' : 'item'}_${reply.id}_in${index}`;
    if (kind !== 'message') return { ...item, id };
    return { id, type: 'message', role: item.role, content: contentList(item.role, item.content), status: 'completed' };
  });
}

export interface ItemPageQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

/** One page of the list, or undefined when `after` names no item of it. */
export function itemPage(items: ReadonlyArray<{ id: string }>, query: ItemPageQuery): unknown {
  const ordered = query.order === 'asc' ? [...items] : [...items].reverse();
  const start = query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  if (start === 0 && query.after !== undefined) return undefined;
  const data = ordered.slice(start, start + query.limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + data.length < ordered.length,
  };
}
