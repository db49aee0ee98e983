// Schemas of the kinds SDK users send: OpenAI structured outputs, Anthropic tool input_schema,
// Gemini responseSchema (OpenAPI style, upper-case types) and responseJsonSchema.
import type { Dialect } from './schema-validation.js';

export interface Sample {
  name: string;
  dialect: Dialect;
  schema: Record<string, unknown>;
}

const strictObject = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const SAMPLES: Sample[] = [
  // ---- OpenAI structured outputs (strict: every property required, closed objects) ----
  {
    name: 'openai math reasoning',
    dialect: '2020-12',
    schema: strictObject({
      steps: { type: 'array', items: strictObject({ explanation: { type: 'string' }, output: { type: 'string' } }) },
      final_answer: { type: 'string' },
    }),
  },
  {
    name: 'openai calendar event',
    dialect: '2020-12',
    schema: strictObject({ name: { type: 'string' }, date: { type: 'string' }, participants: { type: 'array', items: { type: 'string' } } }),
  },
  {
    name: 'openai recursive UI (#)',
    dialect: '2020-12',
    schema: {
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['div', 'button', 'header', 'section', 'field', 'form'] },
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#' } },
        attributes: { type: 'array', items: strictObject({ name: { type: 'string' }, value: { type: 'string' } }) },
      },
      required: ['type', 'label', 'children', 'attributes'],
      additionalProperties: false,
    },
  },
  {
    name: 'openai linked list ($defs)',
    dialect: '2020-12',
    schema: {
      ...strictObject({ linked_list: { $ref: '#/$defs/linked_list_node' } }),
      $defs: {
        linked_list_node: strictObject({
          value: { type: 'number' },
          next: { anyOf: [{ $ref: '#/$defs/linked_list_node' }, { type: 'null' }] },
        }),
      },
    },
  },
  {
    name: 'openai nullable unit',
    dialect: '2020-12',
    schema: strictObject({ location: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['F', 'C', null] } }),
  },
  {
    name: 'openai moderation',
    dialect: '2020-12',
    schema: strictObject({
      is_violating: { type: 'boolean' },
      category: { type: ['string', 'null'], enum: ['violence', 'sexual', 'self_harm', null] },
      explanation_if_violating: { type: ['string', 'null'] },
    }),
  },
  {
    name: 'openai anyOf user or address',
    dialect: '2020-12',
    schema: strictObject({
      item: {
        anyOf: [
          strictObject({ name: { type: 'string' }, age: { type: 'number' } }),
          strictObject({ number: { type: 'string' }, street_name: { type: 'string' }, city: { type: 'string' } }),
        ],
      },
    }),
  },
  {
    name: 'openai research paper',
    dialect: '2020-12',
    schema: strictObject({
      title: { type: 'string' },
      authors: { type: 'array', items: { type: 'string' } },
      abstract: { type: 'string' },
      keywords: { type: 'array', items: { type: 'string' } },
    }),
  },
  {
    name: 'zod-to-json-schema (draft-07 definitions)',
    dialect: 'draft-07',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $ref: '#/definitions/Order',
      definitions: {
        Order: {
          type: 'object',
          properties: {
            orderId: { type: 'string', format: 'uuid' },
            customer: { $ref: '#/definitions/Customer', description: 'who ordered' },
            items: { type: 'array', items: { $ref: '#/definitions/LineItem' }, minItems: 1 },
            placedAt: { type: 'string', format: 'date-time' },
          },
          required: ['orderId', 'customer', 'items', 'placedAt'],
          additionalProperties: false,
        },
        Customer: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' } },
          required: ['name', 'email'],
          additionalProperties: false,
        },
        LineItem: {
          type: 'object',
          properties: { sku: { type: 'string' }, quantity: { type: 'integer', exclusiveMinimum: 0 }, price: { type: 'number', minimum: 0 } },
          required: ['sku', 'quantity', 'price'],
          additionalProperties: false,
        },
      },
    },
  },
  {
    name: 'number bounds and multipleOf',
    dialect: '2020-12',
    schema: strictObject({
      score: { type: 'integer', minimum: 0, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      price: { type: 'number', multipleOf: 0.01, minimum: 0 },
      quantity: { type: 'integer', multipleOf: 5, minimum: 10, maximum: 50 },
      offset: { type: 'integer', maximum: -1000 },
      tiny: { type: 'number', exclusiveMinimum: 0.1, exclusiveMaximum: 0.11 },
      year: { type: 'integer', minimum: 2000 },
    }),
  },
  {
    name: 'string lengths and patterns',
    dialect: '2020-12',
    schema: strictObject({
      code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
      phone: { type: 'string', pattern: '^\\+?[1-9]\\d{7,14}$' },
      hex_color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      short: { type: 'string', maxLength: 5 },
      long_description: { type: 'string', minLength: 120 },
      exact: { type: 'string', minLength: 3, maxLength: 3 },
    }),
  },
  {
    name: 'formats',
    dialect: '2020-12',
    schema: strictObject({
      when: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'time' },
      mail: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      ip: { type: 'string', format: 'ipv4' },
      ip6: { type: 'string', format: 'ipv6' },
      host: { type: 'string', format: 'hostname' },
      wait: { type: 'string', format: 'duration' },
    }),
  },
  {
    name: 'oneOf discriminated shapes',
    dialect: '2020-12',
    schema: strictObject({
      shape: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'] },
          { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] },
          { type: 'object', properties: { kind: { const: 'rect' }, width: { type: 'number' }, height: { type: 'number' } }, required: ['kind', 'width', 'height'] },
        ],
      },
    }),
  },
  {
    name: 'oneOf overlapping number and integer',
    dialect: '2020-12',
    schema: { oneOf: [{ type: 'integer' }, { type: 'number' }, { type: 'string' }] },
  },
  {
    name: 'oneOf required sets (no discriminator)',
    dialect: 'draft-07',
    schema: {
      type: 'object',
      oneOf: [
        { properties: { email: { type: 'string', format: 'email' } }, required: ['email'], additionalProperties: false },
        { properties: { phone: { type: 'string' } }, required: ['phone'], additionalProperties: false },
      ],
    },
  },
  {
    name: 'allOf with $ref base',
    dialect: '2020-12',
    schema: {
      allOf: [{ $ref: '#/$defs/base' }, { type: 'object', properties: { extra: { type: 'string' } }, required: ['extra'] }],
      $defs: { base: { type: 'object', properties: { id: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } }, required: ['id'] } },
    },
  },
  {
    name: 'tuples (prefixItems, closed)',
    dialect: '2020-12',
    schema: strictObject({
      coordinates: { type: 'array', prefixItems: [{ type: 'number', minimum: -90, maximum: 90 }, { type: 'number', minimum: -180, maximum: 180 }], items: false },
      unique_letters: { type: 'array', items: { enum: ['a', 'b', 'c'] }, uniqueItems: true, minItems: 2, maxItems: 3 },
      many: { type: 'array', items: { type: 'integer' }, minItems: 5 },
      none: { type: 'array', items: { type: 'string' }, maxItems: 0 },
    }),
  },
  {
    name: 'draft-07 tuple items with additionalItems false',
    dialect: 'draft-07',
    schema: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }], additionalItems: false },
  },
  {
    name: 'maps and boolean schemas',
    dialect: '2020-12',
    schema: {
      type: 'object',
      properties: { scores: { type: 'object', additionalProperties: { type: 'integer' } }, anything: true, labels: { minProperties: 3 } },
      required: ['scores', 'anything'],
    },
  },
  {
    name: 'missing types inferred',
    dialect: '2020-12',
    schema: { properties: { list: { items: { type: 'number' } }, choice: { enum: [1, 'two', null] }, limit: { maximum: 3 }, free: {} } },
  },
  // ---- Anthropic tool input_schema ----
  {
    name: 'anthropic get_weather',
    dialect: 'draft-07',
    schema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'The unit of temperature' },
      },
      required: ['location'],
    },
  },
  {
    name: 'anthropic record_summary',
    dialect: 'draft-07',
    schema: {
      type: 'object',
      properties: {
        key_colors: {
          type: 'array',
          items: {
            type: 'object',
            properties: { r: { type: 'number' }, g: { type: 'number' }, b: { type: 'number' }, name: { type: 'string', description: 'snake_case color name' } },
            required: ['r', 'g', 'b', 'name'],
          },
        },
        description: { type: 'string' },
        estimated_year: { type: 'integer', description: 'Estimated year the image was taken' },
      },
      required: ['key_colors', 'description'],
    },
  },
  {
    name: 'anthropic text editor tool',
    dialect: 'draft-07',
    schema: {
      type: 'object',
      properties: {
        command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] },
        path: { type: 'string' },
        file_text: { type: 'string' },
        insert_line: { type: 'integer', minimum: 0 },
        view_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
      },
      required: ['command', 'path'],
    },
  },
  // ---- Gemini ----
  {
    name: 'gemini recipes (responseSchema)',
    dialect: 'gemini',
    schema: {
      type: 'ARRAY',
      items: {
        type: 'OBJECT',
        properties: { recipeName: { type: 'STRING' }, ingredients: { type: 'ARRAY', items: { type: 'STRING' } } },
        propertyOrdering: ['recipeName', 'ingredients'],
        required: ['recipeName', 'ingredients'],
      },
    },
  },
  {
    name: 'gemini nullable, enum format, int64 strings',
    dialect: 'gemini',
    schema: {
      type: 'OBJECT',
      properties: {
        name: { type: 'STRING' },
        age: { type: 'INTEGER', nullable: true, format: 'int32' },
        rating: { type: 'NUMBER', minimum: 1, maximum: 5 },
        status: { type: 'STRING', format: 'enum', enum: ['draft', 'published'] },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '2', maxItems: '4' },
        nickname: { type: 'STRING', nullable: true, maxLength: '12' },
        verified: { type: 'BOOLEAN' },
      },
      required: ['name', 'age', 'rating', 'status', 'tags'],
    },
  },
  {
    name: 'gemini responseJsonSchema with anyOf',
    dialect: '2020-12',
    schema: {
      type: 'object',
      properties: {
        answer: { type: 'string' },
        source: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['answer', 'source', 'confidence'],
    },
  },
];
