// Faker calls in templates that would generate without bound are refused when the template is
// compiled: in a fixture file (file:line:col in health, the last good configuration kept) and in
// fixtures posted to /__admin/fixtures (a 400 naming the field). What a template renders is cut at
// 100,000 characters, however long the request field it echoes.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFor } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Health {
  status: string;
  errors: Array<{ file: string; line: number; col: number; message: string }>;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    fixtureFiles: {
      'echo.yaml': 'chat:\n  - name: echo\n    match: { contains: "echo" }\n    reply: { text: "{{request.padding}}" }\n',
    },
  });
});
afterAll(() => server.close());

/** A text as a JSON argument of a faker call, its `{{` and `}}` escaped as a template needs them. */
const arg = (text: string) => JSON.stringify(text).replaceAll('{{', '\\u007b\\u007b').replaceAll('}}', '\\u007d\\u007d');

const fixtureWith = (template: string) => ({ chat: [{ name: 'big', match: { contains: 'big' }, reply: { text: template } }] });

describe('a faker call past the bound', () => {
  it.each([
    '{{faker.string.alpha({"length": 100000000})}}',
    '{{faker.lorem.paragraphs(1000000)}}',
    '{{faker.lorem.paragraphs(5000)}}',
    '{{faker.string.numeric(100001)}}',
    '{{faker.helpers.fromRegExp("[a-z]{50000000}")}}',
    // Through faker's own template evaluator (its braces escaped in the JSON argument), at any depth.
    `{{faker.helpers.fake(${arg('{{lorem.paragraphs(1000000)}}')})}}`,
    `{{faker.helpers.fake(["Hi", ${arg(`{{helpers.fake(${arg('{{string.alpha(200000)}}')})}}`)}])}}`,
    // A separator repeated once a unit: 2,000 sentences with 90,000 characters between each.
    `{{faker.lorem.sentences(2000, "${'-'.repeat(90_000)}")}}`,
    '{{faker.system.fileName({"extensionCount": 100000000})}}',
  ])('%# is a 400 from POST /__admin/fixtures, with health answering alongside', async (template) => {
    const [posted, health] = await Promise.all([
      server.admin('/fixtures?session=t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fixtureWith(template)) }),
      server.admin('/health'),
    ]);
    expect(health.status).toBe(200);
    expect(posted.status).toBe(400);
    const { error } = (await posted.json()) as { error: { code: string; param: string; message: string } };
    expect(error.code).toBe('invalid_fixtures');
    expect(error.param).toBe('chat[0].reply.text');
    expect(error.message).toContain('100000');
  });

  it('in a fixture file is a load error at its file:line:col, and the last good configuration stays', async () => {
    await server.writeFixture('huge.yaml', 'chat:\n  - name: huge\n    match: { contains: "huge" }\n    reply:\n      text: "{{faker.lorem.words(2000000)}}"\n');
    const health = (await (await server.admin('/health')).json()) as Health;
    expect(health.errors).toEqual([expect.objectContaining({ line: 5, col: 13, message: expect.stringContaining('100000') })]);
    expect(health.errors[0]!.file).toMatch(/huge\.yaml$/);
    const kept = await server.admin('/fixtures');
    expect(((await kept.json()) as { fixtures: Array<{ name: string }> }).fixtures.map((f) => f.name)).toContain('echo');
    await server.removeFixture('huge.yaml');
  });

  it('helpers.mustache, which fills a given text with no amount to judge, is refused naming it', async () => {
    const posted = await server.admin('/fixtures?session=m', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fixtureWith(`{{faker.helpers.mustache(${arg('{{a}}'.repeat(10_000))}, {"a": "${'x'.repeat(50_000)}"})}}`)),
    });
    expect(posted.status).toBe(400);
    expect(((await posted.json()) as { error: { message: string } }).error.message).toContain('faker.helpers.mustache is not available in templates');
  });

  it('helpers.fake runs each placeholder once, and what they write is not run again', async () => {
    // The first two placeholders write `{` and `{lorem.paragraphs(1000000)}}`: together a placeholder.
    const pattern = `Hi {{person.firstName}}! {{helpers.arrayElement([${arg('{')}])}}{{helpers.arrayElement([${arg('{lorem.paragraphs(1000000)}}')}])}}`;
    const template = `{{faker.helpers.fake(${arg(pattern)})}}`;
    const posted = await server.admin('/fixtures?session=f', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fixtureWith(template)) });
    expect(posted.status).toBe(201);
    const ask = () => openaiFor(server.url, 'f').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'big' }] });
    const text = (await ask()).choices[0]!.message.content!;
    expect(text).toMatch(/^Hi [A-Z][a-z]+! \{\{lorem\.paragraphs\(1000000\)\}\}$/);
    expect((await ask()).choices[0]!.message.content).toBe(text);
  });

  it('values that are not amounts stay allowed: a large number.int maximum, a price range', async () => {
    const posted = await server.admin('/fixtures?session=v', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fixtureWith('{{faker.number.int(1000000000)}} {{faker.finance.amount({"min": 1, "max": 5000000})}} {{faker.lorem.paragraphs(3)}}')),
    });
    expect(posted.status).toBe(201);
    const reply = await openaiFor(server.url, 'v').chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'big' }] });
    expect(reply.choices[0]!.message.content!.length).toBeGreaterThan(20);
  });
});

describe('a rendered template', () => {
  it('is cut at 100,000 characters', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const padding = 'x'.repeat(300_000);
    const reply = await openai.chat.completions.create(
      { model: 'gpt-4o-mini', max_completion_tokens: 200_000, messages: [{ role: 'user', content: 'echo' }] },
      { body: { model: 'gpt-4o-mini', max_completion_tokens: 200_000, messages: [{ role: 'user', content: 'echo' }], padding } },
    );
    expect(reply.choices[0]!.message.content).toBe('x'.repeat(100_000));
  });
});
