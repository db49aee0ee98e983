// The vendor spells a bad field as a dotted path before the problem (`max_tokens: Field required`,
// `messages.0.content.1.type: ...`); the param keeps the bracket form every style shares.
import { invalid, type MockError } from '../../conversation/errors.js';
import type { IssueWording } from '../validate.js';

export function dotted(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1');
}

export const messagesWording: IssueWording = ({ field, missing, detail }) =>
  `${field ? `${dotted(field)}: ` : ''}${missing ? 'Field required' : detail}`;

/** A 400 about one field, worded as the vendor words it. */
export function badField(field: string, problem: string): MockError {
  return invalid(`${dotted(field)}: ${problem}`, field);
}
