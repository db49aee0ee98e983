// The weather tool server the fake-MCP tests declare, as a fixtures file.
export const WEATHER = `
mcp:
  - server: weather
    tools:
      - name: get_forecast
        description: Forecast for a city.
        input: { type: object, properties: { city: { type: string } }, required: [city] }
        output: { type: object, properties: { temp_c: { type: number }, sky: { type: string } }, required: [temp_c] }
        replies:
          - match: { args: { city: Paris } }
            structured: { temp_c: 12, sky: rain }
            content: [ { type: text, text: "12 °C and rain" } ]
          - match: { args: { city: Atlantis } }
            error: "No such city."
      - name: get_alerts
        input: { type: object, properties: { region: { type: string } } }
        replies:
          - match: { args: { region: north } }
            content: [ { type: text, text: "Storm warning." } ]
    resources: [ { uri: "file:///readme.md", text: "Weather for the agent." } ]
`;
