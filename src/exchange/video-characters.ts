// Characters made from uploaded footage: `POST /v1/videos/characters` (multipart, `name` and a
// `video` file) and `GET /v1/videos/characters/{id}`, kept in the session like its videos.
import { failure, invalid } from '../conversation/errors.js';
import { checkedClip } from '../media/upload.js';
import { MAX_CHARACTERS, putBounded, type VideoCharacter } from '../state/session.js';
import { characterObject, decodeCharacter } from '../styles/videos/derive.js';
import { json } from './exchange.js';
import { plainOperation } from './operation.js';
import { nextId } from './request.js';

export const createCharacter = plainOperation((mock, exchange) => {
  const { name } = decodeCharacter(exchange.body);
  if (!checkedClip(exchange.uploads.get('video'), 'video')) {
    throw invalid("Missing required parameter: 'video' (the footage, an MP4 file in a multipart/form-data body).", 'video', 'missing_required_parameter');
  }
  const session = exchange.session;
  const character: VideoCharacter = { id: `char_${nextId(mock, session)}`, name, createdMs: mock.clock.now() };
  putBounded(session.characters, character.id, character, MAX_CHARACTERS);
  return json(characterObject(character));
});

export const getCharacter = plainOperation((_mock, exchange) => {
  const id = exchange.params.id!;
  const character = exchange.session.characters.get(id);
  if (!character) throw failure('character_not_found', `Character '${id}' was not found.`, { param: 'character_id' });
  return json(characterObject(character));
});
