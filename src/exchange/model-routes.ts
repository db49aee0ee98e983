// The model API as one table: each row a method, a path, the door it answers for (the journal's
// style and the error envelope), the body it reads, whether it wants a key, which vendor's batch
// lines may name it, and its operation. The HTTP shell loops over it, `GET /` lists it, and tests
// and batches reach the same operations.
// A new endpoint is one row here and one operation that uses the template (operation.ts).
import type { StyleEntry } from '../styles/registry.js';
import { STYLE_ENTRIES, STYLES } from '../styles/registry.js';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import type { BatchVendor } from '../conversation/batch.js';
import type { BatchEndpoints, LineRoute } from './batch-line.js';
import { taskEnvelope } from '../styles/videos/gateway.js';
import { deploymentOperation } from './azure.js';
import { byAction } from './by-action.js';
import { chat } from './chat.js';
import { countTokens } from './count-tokens.js';
import type { Door, Operation } from './exchange.js';
import { getModel, listModels, modelsDoor, openrouterModels } from './models.js';
import { operationsAtFirstCall } from './operations-at-first-call.js';
import { cancelResponse, deleteResponse, listInputItems, retrieveResponse } from './stored-responses.js';

// The doors a chat hit never goes through: their modules are evaluated at their first request.
const audioSpeech = operationsAtFirstCall(() => import('./audio-speech.js'));
const audioTranscriptions = operationsAtFirstCall(() => import('./audio-transcriptions.js'));
const completions = operationsAtFirstCall(() => import('./completions.js'));
const embeddings = operationsAtFirstCall(() => import('./embeddings.js'));
const files = operationsAtFirstCall(() => import('./files.js'));
const images = operationsAtFirstCall(() => import('./images.js'));
const moderations = operationsAtFirstCall(() => import('./moderations.js'));
const ollama = operationsAtFirstCall(() => import('./ollama.js'));
const rerank = operationsAtFirstCall(() => import('./rerank.js'));
const videoCharacters = operationsAtFirstCall(() => import('./video-characters.js'));
const videoDerived = operationsAtFirstCall(() => import('./video-derived.js'));
const videoTasks = operationsAtFirstCall(() => import('./video-generations.js'));
const videos = operationsAtFirstCall(() => import('./videos.js'));

export interface ModelRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Router syntax: `:name` is a path parameter. The router also takes each path with a trailing slash. */
  path: string;
  door: Door;
  body: 'json' | 'multipart' | 'none';
  /** Whether the route wants a key (a picture's URL, like a vendor's signed URL, does not). */
  auth: boolean;
  /** The vendor whose batches may hold lines naming this route (`POST` rows only). */
  batch?: BatchVendor;
  /** This door's own body limit in bytes, below `--body-limit` (which still caps it). */
  bodyLimit?: number;
  operation: Operation;
}

/**
 * The body limit of the doors whose requests are bounded in tokens (300,000 for embeddings and
 * rerank): the largest valid request, 300,000 token ids, is about 2 MB of JSON, and parsing a
 * body near the 50 MB default held the loop for a quarter of a second.
 */
export const TOKEN_BOUNDED_BODY = 4 * 1024 * 1024;

/** A chat style's door: its name and envelope, its GenAI operation, its framing and the headers its vendor requires. */
export function styleDoor(entry: StyleEntry): Door {
  return {
    style: entry.style.name,
    envelope: () => entry.style.envelope,
    genAiOperation: entry.genAiOperation,
    ...(entry.framing && { framing: entry.framing }),
    ...(entry.requiredHeaders && { requiredHeaders: entry.requiredHeaders }),
  };
}

const IMAGES: Door = { style: 'images', envelope: () => openaiEnvelope };
const VIDEOS: Door = { style: 'videos', envelope: () => openaiEnvelope };
const TASKS: Door = { style: 'videos', envelope: () => taskEnvelope };
const AUDIO: Door = { style: 'audio', envelope: () => openaiEnvelope };
const door = (style: string): Door => ({ style, envelope: () => openaiEnvelope });
const EMBEDDINGS = door('embeddings');
const RERANK = door('rerank');
const MODERATIONS = door('moderations');
const COMPLETIONS: Door = { ...door('completions'), genAiOperation: 'text_completion' };
const MODELS = modelsDoor();
// Azure's other doors: the house's operations in Azure's envelope, journaled under its name.
const AZURE: Door = { style: 'azure-openai', envelope: () => STYLES['azure-openai'].style.envelope };
const azureRows = (path: string, body: ModelRoute['body'], operation: Operation, facts: RowFacts = {}): ModelRoute[] => [
  row('POST', `/openai/deployments/:deployment${path}`, AZURE, body, deploymentOperation(operation), facts),
  row('POST', `/openai/v1${path}`, AZURE, body, operation, facts),
];
// Ollama's other doors speak its envelope and are journaled under its name.
const OLLAMA: Door = { style: 'ollama', envelope: () => STYLES.ollama.style.envelope };
// OpenRouter's other doors: the OpenAI contract under /api/v1/, in its envelope and under its name.
const OPENROUTER: Door = { style: 'openrouter', envelope: () => STYLES.openrouter.style.envelope };
// Gemini's own paths always list in its vendor's format, whatever the request's headers say.
const GEMINI_LISTS = STYLES['generate-content'].listFormat;
const GEMINI_MODELS = modelsDoor(GEMINI_LISTS);

/** What differs from most rows: no key wanted, lines of a vendor's batches may name it, a body limit of its own. */
type RowFacts = { auth?: false; batch?: BatchVendor; bodyLimit?: number };

const row = (method: ModelRoute['method'], path: string, door: Door, body: ModelRoute['body'], operation: Operation, facts: RowFacts = {}): ModelRoute => ({
  method,
  path,
  door,
  body,
  auth: facts.auth ?? true,
  ...(facts.batch && { batch: facts.batch }),
  ...(facts.bodyLimit && { bodyLimit: facts.bodyLimit }),
  operation,
});

const TOKEN_BOUNDED = { bodyLimit: TOKEN_BOUNDED_BODY };

/** The operations of the actions a chat path carries besides chat and counting (generate-content's embeddings). */
const ACTION_OPERATIONS: Readonly<Record<string, Operation>> = { embedContent: embeddings('embedContent'), batchEmbedContents: embeddings('batchEmbedContents') };

/** A style's chat paths and its token counting, from its registry entry. */
function styleRows(entry: StyleEntry): ModelRoute[] {
  const door = styleDoor(entry);
  const talk = chat(entry.style);
  const count = entry.tokens && countTokens(entry.tokens.counting);
  const answer = entry.params ? byAction(entry, talk, count, ACTION_OPERATIONS) : talk;
  const facts = { ...(entry.keyless && { auth: false as const }), ...(entry.batch && { batch: entry.batch }) };
  const rows = entry.paths.map((path) => row('POST', path, door, 'json', answer, facts));
  return entry.tokens?.path && count ? [...rows, row('POST', entry.tokens.path, door, 'json', count)] : rows;
}

const RESPONSES = styleDoor(STYLES.responses);
const FILES: Door = { style: 'files', envelope: () => openaiEnvelope };
const BATCHES: Door = { style: 'batches', envelope: () => openaiEnvelope };
// Spoken like the messages style, but a batch is no chat: its spans keep its own name.
const MESSAGE_BATCHES: Door = { style: 'message-batches', envelope: () => STYLES.messages.style.envelope, requiredHeaders: STYLES.messages.requiredHeaders! };

/** A batch line's route: `POST` and its url in this table (read when a line is answered, once the table exists). */
export const lineRoute: LineRoute = (url) => {
  const found = MODEL_ROUTES.find((route) => route.method === 'POST' && route.path === url);
  return found && { operation: found.operation, door: found.door };
};
const batchEndpoints: BatchEndpoints = (vendor) => MODEL_ROUTES.filter((route) => route.batch === vendor).map((route) => route.path);
const batches = operationsAtFirstCall(() => import('./batches.js').then(({ batchOperations }) => batchOperations(lineRoute, batchEndpoints)));
const messageBatches = operationsAtFirstCall(() =>
  import('./message-batches.js').then(({ messageBatchOperations }) => messageBatchOperations(lineRoute, batchEndpoints)),
);

export const MODEL_ROUTES: readonly ModelRoute[] = [
  ...STYLE_ENTRIES.flatMap(styleRows),
  row('GET', '/v1/responses/:id', RESPONSES, 'none', retrieveResponse),
  row('DELETE', '/v1/responses/:id', RESPONSES, 'none', deleteResponse),
  row('POST', '/v1/responses/:id/cancel', RESPONSES, 'none', cancelResponse),
  row('GET', '/v1/responses/:id/input_items', RESPONSES, 'none', listInputItems),

  row('GET', '/v1/models', MODELS, 'none', listModels()),
  row('GET', '/v1/models/:model', MODELS, 'none', getModel()),
  row('GET', '/v1beta/models', GEMINI_MODELS, 'none', listModels(GEMINI_LISTS)),
  row('GET', '/v1beta/models/:model', GEMINI_MODELS, 'none', getModel(GEMINI_LISTS)),

  row('POST', '/v1/images/generations', IMAGES, 'json', images('imageGenerations'), { batch: 'openai' }),
  row('POST', '/v1/images/edits', IMAGES, 'multipart', images('imageEdits'), { batch: 'openai' }),
  row('POST', '/v1/images/variations', IMAGES, 'multipart', images('imageVariations')),
  row('GET', '/v1/images/files/:session/:file', IMAGES, 'none', images('imageFile'), { auth: false }),

  row('POST', '/v1/videos', VIDEOS, 'multipart', videos('createVideo'), { batch: 'openai' }),
  row('POST', '/v1/videos/edits', VIDEOS, 'multipart', videoDerived('editVideo')),
  row('POST', '/v1/videos/extensions', VIDEOS, 'multipart', videoDerived('extendVideo')),
  row('POST', '/v1/videos/characters', VIDEOS, 'multipart', videoCharacters('createCharacter')),
  row('GET', '/v1/videos/characters/:id', VIDEOS, 'none', videoCharacters('getCharacter')),
  row('POST', '/v1/videos/:id/remix', VIDEOS, 'multipart', videoDerived('remixVideo')),
  row('GET', '/v1/videos', VIDEOS, 'none', videos('listVideos')),
  row('GET', '/v1/videos/:id', VIDEOS, 'none', videos('retrieveVideo')),
  row('DELETE', '/v1/videos/:id', VIDEOS, 'none', videos('deleteVideo')),
  row('GET', '/v1/videos/:id/content', VIDEOS, 'none', videos('videoContent')),

  row('POST', '/v1/video/generations', TASKS, 'multipart', videoTasks('createVideoTask')),
  row('GET', '/v1/video/generations/:task_id', TASKS, 'none', videoTasks('getVideoTask')),

  row('POST', '/v1/audio/speech', AUDIO, 'json', audioSpeech('audioSpeech')),
  row('POST', '/v1/audio/transcriptions', AUDIO, 'multipart', audioTranscriptions('audioTranscriptions')),
  row('POST', '/v1/audio/translations', AUDIO, 'multipart', audioTranscriptions('audioTranslations')),
  // The other doors (SPEC 15); generate-content's embedding actions are on its chat path above.
  row('POST', '/v1/embeddings', EMBEDDINGS, 'json', embeddings('embeddings'), { batch: 'openai', ...TOKEN_BOUNDED }),
  row('POST', '/v1/rerank', RERANK, 'json', rerank('rerank'), TOKEN_BOUNDED),
  row('POST', '/v2/rerank', RERANK, 'json', rerank('rerank'), TOKEN_BOUNDED),
  row('POST', '/v1/moderations', MODERATIONS, 'json', moderations('moderations'), { batch: 'openai' }),
  row('POST', '/v1/completions', COMPLETIONS, 'json', completions('completions'), { batch: 'openai' }),

  ...azureRows('/embeddings', 'json', embeddings('embeddings'), TOKEN_BOUNDED),
  ...azureRows('/completions', 'json', completions('completions')),
  ...azureRows('/images/generations', 'json', images('imageGenerations')),
  ...azureRows('/audio/speech', 'json', audioSpeech('audioSpeech')),
  ...azureRows('/audio/transcriptions', 'multipart', audioTranscriptions('audioTranscriptions')),
  ...azureRows('/audio/translations', 'multipart', audioTranscriptions('audioTranslations')),
  row('GET', '/api/v1/models', OPENROUTER, 'none', openrouterModels),
  row('POST', '/api/v1/embeddings', OPENROUTER, 'json', embeddings('openrouterEmbeddings'), TOKEN_BOUNDED),
  row('POST', '/api/v1/completions', OPENROUTER, 'json', completions('openrouterCompletions')),
  row('POST', '/api/embed', OLLAMA, 'json', embeddings('ollamaEmbed'), { auth: false }),
  row('GET', '/api/tags', OLLAMA, 'none', ollama('ollamaTagList'), { auth: false }),
  row('POST', '/api/show', OLLAMA, 'json', ollama('ollamaShowModel'), { auth: false }),
  row('GET', '/api/version', OLLAMA, 'none', ollama('ollamaVersion'), { auth: false }),

  row('POST', '/v1/files', FILES, 'multipart', files('createFile')),
  row('GET', '/v1/files', FILES, 'none', files('listFiles')),
  row('GET', '/v1/files/:id', FILES, 'none', files('retrieveFile')),
  row('GET', '/v1/files/:id/content', FILES, 'none', files('fileContent')),
  row('DELETE', '/v1/files/:id', FILES, 'none', files('deleteFile')),
  row('POST', '/v1/batches', BATCHES, 'json', batches('createBatch')),
  row('GET', '/v1/batches', BATCHES, 'none', batches('listBatches')),
  row('GET', '/v1/batches/:id', BATCHES, 'none', batches('retrieveBatch')),
  row('POST', '/v1/batches/:id/cancel', BATCHES, 'none', batches('cancelBatch')),
  row('POST', '/v1/messages/batches', MESSAGE_BATCHES, 'json', messageBatches('createMessageBatch')),
  row('GET', '/v1/messages/batches', MESSAGE_BATCHES, 'none', messageBatches('listMessageBatches')),
  row('GET', '/v1/messages/batches/:id', MESSAGE_BATCHES, 'none', messageBatches('retrieveMessageBatch')),
  row('POST', '/v1/messages/batches/:id/cancel', MESSAGE_BATCHES, 'none', messageBatches('cancelMessageBatch')),
  row('DELETE', '/v1/messages/batches/:id', MESSAGE_BATCHES, 'none', messageBatches('deleteMessageBatch')),
  row('GET', '/v1/messages/batches/:id/results', MESSAGE_BATCHES, 'none', messageBatches('messageBatchResults')),
];

/** The row of a method and path as the table writes it (`/v1/videos/:id`), for tests and batches. */
export function modelRoute(method: ModelRoute['method'], path: string): ModelRoute {
  const found = MODEL_ROUTES.find((route) => route.method === method && route.path === path);
  if (!found) throw new Error(`No model route ${method} ${path}.`);
  return found;
}
