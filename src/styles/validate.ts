// Request bodies are checked with zod; the first problem becomes a 400 in the style's envelope
// that names the field (`messages[0].role`).
import type * as z from 'zod';
import { formatPath } from '../conversation/field-path.js';
import { invalid } from '../conversation/errors.js';
import { checkedBefore, rememberChecked } from './parsed-bodies.js';
import { narrowedTo } from './present-keys.js';

interface Located {
  issue: z.core.$ZodIssue;
  path: PropertyKey[];
}

/**
 * A union such as `content: string | Block[]` fails as a whole; when all but one branch failed
 * only on the value's type, the problem is inside that branch, so report its own issue and path.
 */
function innermost(located: Located): Located {
  const { issue, path } = located;
  if (issue.code !== 'invalid_union') return located;
  const branches = issue.errors.filter((branch) => !(branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0));
  const inner = branches.length === 1 ? branches[0]![0] : undefined;
  return inner ? innermost({ issue: inner, path: [...path, ...inner.path] }) : located;
}

/** One schema problem, for a style that spells its 400 messages its own way. */
export interface BodyIssue {
  /** `messages[0].role`; empty for the body itself. */
  field: string;
  missing: boolean;
  detail: string;
}

export type IssueWording = (issue: BodyIssue) => string;

const openaiWording: IssueWording = ({ field, missing, detail }) =>
  missing ? `Missing required parameter: '${field}'.` : `Invalid value for '${field || 'body'}': ${detail}.`;

export function parseBody<S extends z.ZodType>(schema: S, body: unknown, wording: IssueWording = openaiWording): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object.', undefined, 'invalid_body');
  }
  const before = checkedBefore(schema, body);
  if (before !== undefined) return before as z.infer<S>;
  const result = narrowedTo(schema, body).safeParse(body);
  if (result.success) {
    rememberChecked(schema, body, result.data);
    return result.data;
  }
  const first = result.error.issues[0]!;
  const { issue, path } = innermost({ issue: first, path: first.path });
  const field = formatPath(path);
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  const message = wording({ field, missing, detail: issue.message });
  throw invalid(message, field || undefined, missing ? 'missing_required_parameter' : 'invalid_value');
}
