// What `GET /v1/responses/{id}` and its input items show of a stored response: the response
// object and the input items, as objects while the session is far from its budget, and once it
// packs them (past half the overall budget) as JSON text deflated with its neighbours' (see
// `keep` in session.ts), read back when asked for. As objects they are about 1.4 KB a response.
import { PackedText } from './packed-text.js';

type InputItems = ReadonlyArray<{ id: string }>;

export class ResponseParts {
  private objects: { body: unknown; inputItems: InputItems } | undefined;
  private json: PackedText | undefined;

  constructor(body: unknown, inputItems: InputItems) {
    this.objects = { body, inputItems };
  }

  private read(): { body: unknown; inputItems: InputItems } {
    if (this.objects) return this.objects;
    const [body, inputItems] = JSON.parse(this.json!.text) as [unknown, InputItems];
    return { body, inputItems };
  }

  /** The response object as it was answered (parsed anew each time once packed). */
  get body(): unknown {
    return this.read().body;
  }

  get inputItems(): InputItems {
    return this.read().inputItems;
  }

  /** Its JSON text, held from now on instead of the objects; undefined when it was packed before. */
  pack(): PackedText | undefined {
    if (!this.objects) return undefined;
    this.json = PackedText.of(JSON.stringify([this.objects.body, this.objects.inputItems]));
    this.objects = undefined;
    return this.json;
  }
}
