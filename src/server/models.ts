// Model-list routes: the format (and with it the error envelope) follows the request headers.
import type { Context, Next } from 'koa';
import { generateContentEnvelope } from '../styles/generate-content/envelope.js';
import { messagesEnvelope } from '../styles/messages/envelope.js';
import {
  anthropicList,
  anthropicModel,
  findModel,
  geminiList,
  geminiModel,
  listFormatOf,
  openaiList,
  openaiModel,
  type ListFormat,
} from '../styles/model-lists.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { promptSubject } from '../conversation/subject.js';
import { applyScenario, toFault } from '../scenarios/apply.js';
import type { Mock, MockState } from './context.js';
import { write } from './writer.js';

const ENVELOPES = { openai: openaiEnvelope, anthropic: messagesEnvelope, gemini: generateContentEnvelope };

/** Picks the list format before auth, so a 401 already speaks the client's dialect. */
export function listFormat(forced?: ListFormat) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const format = forced ?? listFormatOf(ctx.headers, ctx.query);
    const state = ctx.state as MockState & { listFormat: ListFormat };
    state.listFormat = format;
    state.envelope = ENVELOPES[format];
    state.notes.style = 'models';
    await next();
  };
}

export function listModels(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const models = mock.store.current.models;
    const format = (ctx.state as { listFormat: ListFormat }).listFormat;
    const { fault } = await applyScenario(mock, ctx, promptSubject('', '', ctx.headers as Record<string, string>));
    const body = format === 'anthropic' ? anthropicList(models, ctx.query) : format === 'gemini' ? geminiList(models, ctx.query) : openaiList(models);
    await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(fault, () => []));
  };
}

export function getModel(mock: Mock) {
  return async (ctx: Context): Promise<void> => {
    const format = (ctx.state as { listFormat: ListFormat }).listFormat;
    const id = String((ctx as unknown as { params: { model: string } }).params.model).replace(/^models\//, '');
    (ctx.state as MockState).notes.model = id;
    const { fault } = await applyScenario(mock, ctx, promptSubject(id, '', ctx.headers as Record<string, string>));
    const model = findModel(mock.store.current.models, id);
    const body = format === 'anthropic' ? anthropicModel(model) : format === 'gemini' ? geminiModel(model) : openaiModel(model);
    await write(ctx, { kind: 'json', status: 200, headers: {}, body }, toFault(fault, () => []));
  };
}
