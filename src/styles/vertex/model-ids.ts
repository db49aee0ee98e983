// Vertex names a model by the catalog's id, Anthropic's with a `@date` version
// (`claude-sonnet-4-6@20250929`) that names the same model; an unknown one is Vertex's 404.
import { MockError } from '../../conversation/errors.js';
import type { ModelIds } from '../style.js';

export const vertexModels: ModelIds = {
  catalogId: (id, listed) => {
    if (listed(id)) return id;
    const bare = id.replace(/@[^@]*$/, '');
    return listed(bare) ? bare : undefined;
  },
  notFound: (id) => new MockError('not_found', `Publisher Model \`${id}\` was not found or your project does not have access to it. Please ensure you are using a valid model version.`, { status: 404 }),
};
