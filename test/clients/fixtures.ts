// Chat fixtures the framework tests share: a greeting, a system prompt, and a weather tool whose
// result, once sent back, gets a text answer, and thanks for a second turn. No fixture asks for JSON, so structured output is
// the mock's generated JSON for the requested schema.
export const CLIENT_FIXTURES = `chat:
  - name: greeting
    match: { contains: "hello" }
    reply: { text: "Hello from the fixture. How can I help?" }
  - name: pirate
    match: { system: "pirate" }
    reply: { text: "Arr, the sea is calm today." }
  - name: weather-tool
    match: { tools: [get_weather], pattern: "weather in (?<city>[A-Za-z]+)" }
    reply:
      tool_calls:
        - name: get_weather
          arguments: { city: "{{city}}" }
  - name: weather-answer
    match: { tools: [get_weather], conversation: "temperature" }
    priority: 1
    reply: { text: "It is 21 degrees in Rome." }
  - name: thanks
    # A later turn of the same conversation: the tool result is still in it, so this must outrank weather-answer.
    match: { contains: "thank" }
    priority: 2
    reply: { text: "You are welcome." }
`;

/** What the weather tool returns in every test, so the answer fixture can see it came back. */
export const WEATHER_RESULT = JSON.stringify({ city: 'Rome', temperature: 21 });
