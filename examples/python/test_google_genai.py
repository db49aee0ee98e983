"""The google-genai Python SDK against the mock (generate-content style): whole and streamed, a
system instruction, a function call and its response, structured output, an image and a scenario
error. Replies come from the repo's fixtures."""

import pytest
from google.genai import errors, types
from pydantic import BaseModel

GREETING = "Hello! I'm the model-gateway-mock. How can I help you today?"
MODEL = "gemini-2.5-flash"
WEATHER_TOOL = types.Tool(
    function_declarations=[
        types.FunctionDeclaration(
            name="get_weather",
            description="The current weather in a city",
            parameters_json_schema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        )
    ]
)
# The SDK would otherwise call the function itself; the test sends the result back by hand.
MANUAL_TOOLS = types.GenerateContentConfig(tools=[WEATHER_TOOL], automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))


class Forecast(BaseModel):
    city: str
    degrees: int
    sunny: bool


def test_generate_whole_and_streamed(genai_client):
    whole = genai_client.models.generate_content(model=MODEL, contents="hello")
    assert whole.text == GREETING

    chunks = list(genai_client.models.generate_content_stream(model=MODEL, contents="hello"))
    assert len(chunks) > 1
    assert "".join(chunk.text or "" for chunk in chunks) == GREETING


def test_system_instruction_with_any_role(genai_client):
    # The service takes a system instruction with any role, or none; older Google SDKs send "system".
    for role in (None, "user", "system"):
        instruction = types.Content(role=role, parts=[types.Part(text="You are a terse assistant.")])
        config = types.GenerateContentConfig(system_instruction=instruction)
        assert genai_client.models.generate_content(model=MODEL, contents="hello", config=config).text == GREETING


def test_function_call_and_its_response(genai_client):
    question = types.Content(role="user", parts=[types.Part(text="What is the weather in Rome?")])
    first = genai_client.models.generate_content(model=MODEL, contents=[question], config=MANUAL_TOOLS)
    call = first.function_calls[0]
    assert (call.name, call.args) == ("get_weather", {"city": "Rome"})

    result = types.Part.from_function_response(name="get_weather", response={"temperature": 21})
    contents = [question, first.candidates[0].content, types.Content(role="user", parts=[result])]
    answer = genai_client.models.generate_content(model=MODEL, contents=contents, config=MANUAL_TOOLS)
    assert answer.text == "It is sunny with a light breeze, as the forecast tool reports."


def test_structured_output(genai_client):
    config = types.GenerateContentConfig(response_mime_type="application/json", response_schema=Forecast)
    response = genai_client.models.generate_content(model=MODEL, contents="A forecast for Oslo", config=config)
    assert isinstance(response.parsed, Forecast)


def test_image(genai_client):
    config = types.GenerateContentConfig(response_modalities=["IMAGE"])
    response = genai_client.models.generate_content(model="gemini-2.5-flash-image", contents="a red bicycle", config=config)
    picture = next(part.inline_data for part in response.candidates[0].content.parts if part.inline_data)
    assert picture.mime_type == "image/png"
    assert picture.data.startswith(b"\x89PNG")


def test_scenario_error_with_its_retry_delay(genai_client):
    config = types.GenerateContentConfig(http_options=types.HttpOptions(headers={"x-mock-scenario": "rate_limit"}))
    with pytest.raises(errors.ClientError) as raised:
        genai_client.models.generate_content(model=MODEL, contents="hello", config=config)
    assert raised.value.code == 429
    assert raised.value.status == "RESOURCE_EXHAUSTED"
    assert raised.value.response.headers["retry-after"] == "1"
    retry = next(detail for detail in raised.value.details["error"]["details"] if detail["@type"].endswith("RetryInfo"))
    assert retry["retryDelay"] == "1s"
