// Ids of a response and of its output items. Every item id carries the reply id, so an
// `item_reference` to an earlier output item leads back to the stored response that holds it.
import type { Reply } from '../../conversation/types.js';

export function responseId(reply: Pick<Reply, 'id'>): string {
  return `resp_${reply.id}`;
}

export function messageItemId(reply: Pick<Reply, 'id'>): string {
  return `msg_${reply.id}`;
}

export function reasoningItemId(reply: Pick<Reply, 'id'>): string {
  return `rs_${reply.id}`;
}

export function functionCallItemId(reply: Pick<Reply, 'id'>, index: number): string {
  return `fc_${reply.id}_${index}`;
}

export interface ItemOwner {
  responseId: string;
  kind: 'message' | 'reasoning' | 'function_call';
  /** The function call's position among the response's calls. */
  index: number;
}

const ITEM_ID = /^(msg|rs|fc)_([0-9a-f]+)(?:_(\d+))?$/;
const KINDS = { msg: 'message', rs: 'reasoning', fc: 'function_call' } as const;

/** The response and the item an output item id names; undefined for ids the mock never made. */
export function ownerOf(itemId: string): ItemOwner | undefined {
  const match = ITEM_ID.exec(itemId);
  if (!match) return undefined;
  const prefix = match[1] as keyof typeof KINDS;
  if ((prefix === 'fc') !== (match[3] !== undefined)) return undefined;
  return { responseId: `resp_${match[2]}`, kind: KINDS[prefix], index: Number(match[3] ?? 0) };
}
