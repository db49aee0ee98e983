// The route table: every endpoint of the gateway, each a short chain of the shared steps.
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { adminRoutes } from '../admin/routes.js';
import type { Envelope } from '../conversation/errors.js';
import { chatCompletions } from '../styles/chat-completions/index.js';
import { generateContent } from '../styles/generate-content/index.js';
import { messages, messagesTokenCounting } from '../styles/messages/index.js';
import { responses } from '../styles/responses/index.js';
import type { ChatStyle } from '../styles/style.js';
import type { BodyParsers } from './body.js';
import { authenticate } from './auth.js';
import { chatHandler } from './chat.js';
import { countTokensHandler } from './count-tokens.js';
import type { Mock, MockState } from './context.js';
import { generateContentActions } from './generate-content.js';
import { mediaRoutes } from './media-routes.js';
import { getModel, listFormat, listModels } from './models.js';
import { deleteResponse, retrieveResponse } from './stored-responses.js';
import { requireHeader } from './version-header.js';

/** Names the style of a route, so that errors, even auth errors, speak its envelope. */
export function useStyle(style: { name: string; envelope: Envelope }): Middleware {
  return async (ctx: Context, next: Next) => {
    const state = ctx.state as MockState;
    state.envelope = style.envelope;
    state.notes.style = style.name;
    await next();
  };
}

export function routes(mock: Mock, bodies: BodyParsers): Router {
  const body = bodies.json;
  const router = new Router();
  const auth = authenticate(mock);
  const chat = (style: ChatStyle) => [useStyle(style), auth, body, chatHandler(mock, style)] as const;

  router.post('/v1/chat/completions', ...chat(chatCompletions));
  router.post('/v1/responses', ...chat(responses));
  router.get('/v1/responses/:id', useStyle(responses), auth, retrieveResponse(mock));
  router.delete('/v1/responses/:id', useStyle(responses), auth, deleteResponse());
  const anthropicVersion = requireHeader('anthropic-version');
  router.post('/v1/messages', useStyle(messages), auth, anthropicVersion, body, chatHandler(mock, messages));
  router.post('/v1/messages/count_tokens', useStyle(messages), auth, anthropicVersion, body, countTokensHandler(mock, messages, messagesTokenCounting));
  // One segment holds `{model}:{action}` (a trailing slash is accepted by the router).
  router.post('/v1beta/models/:target', useStyle(generateContent), auth, body, generateContentActions(mock));

  router.get('/v1/models', listFormat(), auth, listModels(mock));
  router.get('/v1/models/:model', listFormat(), auth, getModel(mock));
  router.get('/v1beta/models', listFormat('gemini'), auth, listModels(mock));
  router.get('/v1beta/models/:model', listFormat('gemini'), auth, getModel(mock));

  mediaRoutes(router, mock, bodies);
  adminRoutes(router, mock, body);
  return router;
}
