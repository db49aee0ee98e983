// Vertex AI's model paths: `projects/{p}/locations/{l}/publishers/{publisher}/models/{model}:{action}`,
// Google's models taking generate-content's actions, Anthropic's the messages body by rawPredict.
import { MockError } from '../../conversation/errors.js';

type Publisher = 'google' | 'anthropic';

/** Each publisher's actions, and whether an action counts tokens. */
const ACTIONS: Readonly<Record<Publisher, Readonly<Record<string, boolean>>>> = {
  google: { generateContent: false, streamGenerateContent: false, countTokens: true },
  anthropic: { rawPredict: false, streamRawPredict: false },
};

export const VERTEX_PATHS = ['/v1', '/v1beta1'].map((version) => `${version}/projects/:project/locations/:location/publishers/:publisher/models/:target`);

/** Anthropic's token counting is a model path of its own, the model named in the body. */
const ANTHROPIC_COUNTING = 'count-tokens:rawPredict';

/** `claude-sonnet-4-6@20250929:rawPredict` under `anthropic` -> model and action; an action the publisher has not is Vertex's 404. */
export function vertexParams(params: Record<string, string>): { params: Record<string, string>; counting: boolean } {
  const target = params.target ?? '';
  const at = target.lastIndexOf(':');
  const action = at < 0 ? '' : target.slice(at + 1);
  const actions = ACTIONS[params.publisher as Publisher] as (typeof ACTIONS)[Publisher] | undefined;
  const counting = actions?.[action];
  if (!actions || counting === undefined) {
    const offered = actions ? ` The actions on ${params.publisher}'s models are ${Object.keys(actions).join(', ')}.` : ` The publishers are ${Object.keys(ACTIONS).join(', ')}.`;
    throw new MockError('not_found', `Method not found: '${params.publisher}/models/${target}'.${offered}`);
  }
  if (params.publisher === 'anthropic' && target === ANTHROPIC_COUNTING) return { params: { ...params, action }, counting: true };
  return { params: { ...params, model: target.slice(0, at), action }, counting };
}

/** Whether a path names an Anthropic model, answered in the messages wire. */
export function anthropicPublished(params: Record<string, string>): boolean {
  return params.publisher === 'anthropic';
}

/** A chat path's parameters for a model: Anthropic's by its `claude` ids, Google's the rest. */
export function vertexModelParams(model: string): Record<string, string> {
  const anthropic = model.startsWith('claude');
  const target = `${model}:${anthropic ? 'rawPredict' : 'generateContent'}`;
  return vertexParams({ project: 'project', location: 'global', publisher: anthropic ? 'anthropic' : 'google', target }).params;
}
