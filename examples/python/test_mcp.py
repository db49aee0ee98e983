"""Python's MCP client (the `mcp` package) against the mock's fake MCP server at /mcp/weather: the
declared tools, a reply by argument match, an error reply, and the call in the mock's journal,
checked with /__admin/verify. The server comes from the repo's fixtures/tools.yaml."""

import json
import urllib.request

import anyio
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

SESSION = "python-mcp"


async def call_forecasts(url: str) -> tuple[list[str], object, object]:
    async with httpx2.AsyncClient(headers={"x-mock-session": SESSION}) as http:
        async with streamable_http_client(f"{url}/mcp/weather", http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                paris = await session.call_tool("get_forecast", {"city": "Paris"})
                atlantis = await session.call_tool("get_forecast", {"city": "Atlantis"})
                return [tool.name for tool in tools.tools], paris, atlantis


def verify(url: str, expect: list) -> dict:
    request = urllib.request.Request(
        f"{url}/__admin/verify",
        data=json.dumps({"session": SESSION, "expect": expect}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_weather_tools_and_the_journal(mock_url):
    names, paris, atlantis = anyio.run(call_forecasts, mock_url)
    assert names == ["get_forecast", "get_alerts"]
    assert paris.structured_content == {"temp_c": 12, "sky": "rain"}
    assert paris.content[0].text == "12 °C and rain"
    assert atlantis.is_error
    assert atlantis.content[0].text == "No such city."

    verdict = verify(mock_url, [{"sequence": [
        {"tool": "weather/get_forecast", "args": {"city": "Paris"}},
        {"tool": "weather/get_forecast", "args": {"city": "Atlantis"}},
    ]}])
    assert verdict["ok"], verdict
