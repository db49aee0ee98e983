// The route table: every endpoint of the gateway, each a short chain of the shared steps (the
// style that names the envelope, the key, the body) ending in its operation.
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { ADMIN_ROUTES } from '../admin/routes.js';
import { MockError, type Envelope } from '../conversation/errors.js';
import { TextAnswer } from '../exchange/admin/request.js';
import { chat } from '../exchange/chat.js';
import { countTokens } from '../exchange/count-tokens.js';
import { generateContentAction } from '../exchange/generate-content.js';
import { imageEdits, imageFile, imageGenerations, imageVariations } from '../exchange/images.js';
import type { Mock } from '../exchange/mock.js';
import { getModel, LIST_ENVELOPES, listFormat, listModels } from '../exchange/models.js';
import { cancelResponse, deleteResponse, listInputItems, retrieveResponse } from '../exchange/stored-responses.js';
import { createCharacter, getCharacter } from '../exchange/video-characters.js';
import { editVideo, extendVideo, remixVideo } from '../exchange/video-derived.js';
import { createVideoTask, getVideoTask } from '../exchange/video-generations.js';
import { createVideo, deleteVideo, listVideos, retrieveVideo, videoContent } from '../exchange/videos.js';
import { chatCompletions } from '../styles/chat-completions/index.js';
import { generateContent } from '../styles/generate-content/index.js';
import { messages, messagesTokenCounting } from '../styles/messages/index.js';
import type { ListFormat } from '../styles/model-lists.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { responses, responsesTokenCounting } from '../styles/responses/index.js';
import { taskEnvelope } from '../styles/videos/gateway.js';
import { authenticate } from './auth.js';
import { mcpEndpoint, mcpMethodNotAllowed } from './mcp.js';
import { inspectorRoutes } from './inspector-routes.js';
import type { BodyParsers } from './body.js';
import { perform } from './exchange.js';
import type { MockState } from './state.js';
import { requireHeader } from './version-header.js';
import { write } from './writer.js';

/** Names the style of a route, so that errors, even auth errors, speak its envelope. */
function useStyle(style: { name: string; envelope: Envelope }): Middleware {
  return async (ctx: Context, next: Next) => {
    const state = ctx.state as MockState;
    state.envelope = style.envelope;
    state.notes.style = style.name;
    await next();
  };
}

/** Picks the model-list format before auth, so a 401 already speaks the client's dialect. */
function listStyle(forced?: ListFormat): Middleware {
  return (ctx, next) => useStyle({ name: 'models', envelope: LIST_ENVELOPES[listFormat(ctx, forced)] })(ctx, next);
}

function modelRoutes(router: Router, mock: Mock, { json, multipart }: BodyParsers): void {
  const auth = authenticate(mock);
  const run = (operation: Parameters<typeof perform>[1]) => perform(mock, operation);

  router.post('/v1/chat/completions', useStyle(chatCompletions), auth, json, run(chat(chatCompletions)));
  router.post('/v1/responses', useStyle(responses), auth, json, run(chat(responses)));
  router.post('/v1/responses/input_tokens', useStyle(responses), auth, json, run(countTokens(responses, responsesTokenCounting)));
  router.get('/v1/responses/:id', useStyle(responses), auth, run(retrieveResponse));
  router.delete('/v1/responses/:id', useStyle(responses), auth, run(deleteResponse));
  router.post('/v1/responses/:id/cancel', useStyle(responses), auth, run(cancelResponse));
  router.get('/v1/responses/:id/input_items', useStyle(responses), auth, run(listInputItems));
  const anthropicVersion = requireHeader('anthropic-version');
  router.post('/v1/messages', useStyle(messages), auth, anthropicVersion, json, run(chat(messages)));
  router.post('/v1/messages/count_tokens', useStyle(messages), auth, anthropicVersion, json, run(countTokens(messages, messagesTokenCounting)));
  // One segment holds `{model}:{action}` (a trailing slash is accepted by the router).
  router.post('/v1beta/models/:target', useStyle(generateContent), auth, json, run(generateContentAction));

  router.get('/v1/models', listStyle(), auth, run(listModels()));
  router.get('/v1/models/:model', listStyle(), auth, run(getModel()));
  router.get('/v1beta/models', listStyle('gemini'), auth, run(listModels('gemini')));
  router.get('/v1beta/models/:model', listStyle('gemini'), auth, run(getModel('gemini')));

  const images = useStyle({ name: 'images', envelope: openaiEnvelope });
  const videos = useStyle({ name: 'videos', envelope: openaiEnvelope });
  const tasks = useStyle({ name: 'videos', envelope: taskEnvelope });
  // The router also takes each path with a trailing slash, as the gateway description writes it.
  router.post('/v1/images/generations', images, auth, json, run(imageGenerations));
  router.post('/v1/images/edits', images, auth, multipart, run(imageEdits));
  router.post('/v1/images/variations', images, auth, multipart, run(imageVariations));
  // Like a vendor's signed URL, a picture's URL needs no key, so an <img> tag can show it.
  router.get('/v1/images/files/:session/:file', images, run(imageFile));

  router.post('/v1/videos', videos, auth, multipart, run(createVideo));
  router.post('/v1/videos/edits', videos, auth, multipart, run(editVideo));
  router.post('/v1/videos/extensions', videos, auth, multipart, run(extendVideo));
  router.post('/v1/videos/characters', videos, auth, multipart, run(createCharacter));
  router.get('/v1/videos/characters/:id', videos, auth, run(getCharacter));
  router.post('/v1/videos/:id/remix', videos, auth, multipart, run(remixVideo));
  router.get('/v1/videos', videos, auth, run(listVideos));
  router.get('/v1/videos/:id', videos, auth, run(retrieveVideo));
  router.delete('/v1/videos/:id', videos, auth, run(deleteVideo));
  router.get('/v1/videos/:id/content', videos, auth, run(videoContent));

  router.post('/v1/video/generations', tasks, auth, multipart, run(createVideoTask));
  router.get('/v1/video/generations/:task_id', tasks, auth, run(getVideoTask));

  // Gemini's v1 API (`@google/genai` with `apiVersion: 'v1'`): the same actions as under /v1beta.
  router.post('/v1/models/:target', useStyle(generateContent), auth, json, run(generateContentAction));
}

function adminAuth(mock: Mock): Middleware {
  return async (ctx: Context, next: Next) => {
    const token = mock.options.adminToken;
    if (token && ctx.get('authorization') !== `Bearer ${token}`) {
      throw new MockError('unauthorized', 'The admin API needs "Authorization: Bearer <admin token>".');
    }
    await next();
  };
}

function adminRoutes(router: Router, mock: Mock, { json }: BodyParsers): void {
  const guard = adminAuth(mock);
  for (const route of ADMIN_ROUTES) {
    const answer: Middleware = async (ctx) => {
      const request = { query: ctx.query as Record<string, string>, headers: ctx.headers as Record<string, string>, body: ctx.request.body, params: ctx.params, bodySize: (ctx.state as MockState).bodySize };
      const result = route.run(mock, request);
      await write(
        ctx,
        result instanceof TextAnswer
          ? { kind: 'binary', status: route.status, headers: {}, contentType: result.contentType, data: Buffer.from(result.text) }
          : { kind: 'json', status: route.status, headers: {}, body: result },
      );
    };
    router.register(route.path, [route.method], route.body ? [guard, json, answer] : [guard, answer]);
  }
  // The transport reads its own body, so that a body that is not JSON gets a JSON-RPC error.
  router.post('/__admin/mcp', guard, mcpEndpoint(mock));
  router.register('/__admin/mcp', ['GET', 'DELETE'], [guard, mcpMethodNotAllowed]);
}

export function routes(mock: Mock, bodies: BodyParsers): Router {
  const router = new Router();
  modelRoutes(router, mock, bodies);
  adminRoutes(router, mock, bodies);
  inspectorRoutes(router, mock);
  return router;
}
