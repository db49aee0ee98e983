// Chat fixtures the SDK tests share: a greeting with reasoning, and a weather tool call whose
// city comes from the prompt. Each test file adds its own entries after these.
export const SHARED_CHAT_FIXTURES = `  - name: greeting
    match: { contains: "hello" }
    reply:
      text: "Hello from the fixture. How can I help?"
      reasoning: "The user greets me."
  - name: weather-tool
    match: { tools: [get_weather], pattern: "weather in (?<city>[A-Za-z]+)" }
    reply:
      tool_calls:
        - name: get_weather
          arguments: { city: "{{city}}", unit: celsius }
`;
