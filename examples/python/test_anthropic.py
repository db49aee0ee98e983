"""The anthropic Python SDK against the mock (messages style): whole and streamed, a tool round
trip, structured output, an image in the prompt, the model list and a scenario error. Replies
come from the repo's fixtures."""

import base64
from pathlib import Path

import anthropic
import pytest
from pydantic import BaseModel

GREETING = "Hello! I'm the model-gateway-mock. How can I help you today?"
MODEL = "claude-sonnet-4-6"
WEATHER_TOOL = {
    "name": "get_weather",
    "description": "The current weather in a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
PICTURE = Path(__file__).resolve().parents[2] / "fixtures" / "media" / "sample-image.png"


class Forecast(BaseModel):
    city: str
    degrees: int
    sunny: bool


def test_message_whole_and_streamed(anthropic_client):
    messages = [{"role": "user", "content": "hello"}]
    whole = anthropic_client.messages.create(model=MODEL, max_tokens=256, messages=messages)
    assert whole.content[0].text == GREETING

    with anthropic_client.messages.stream(model=MODEL, max_tokens=256, messages=messages) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == GREETING == final.content[0].text


def test_tool_call_and_its_result(anthropic_client):
    messages = [{"role": "user", "content": "What is the weather in Rome?"}]
    first = anthropic_client.messages.create(model=MODEL, max_tokens=256, messages=messages, tools=[WEATHER_TOOL])
    assert first.stop_reason == "tool_use"
    call = next(block for block in first.content if block.type == "tool_use")
    assert (call.name, call.input) == ("get_weather", {"city": "Rome"})

    messages += [
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": '{"temperature": 21}'}]},
    ]
    answer = anthropic_client.messages.create(model=MODEL, max_tokens=256, messages=messages, tools=[WEATHER_TOOL])
    assert answer.content[0].text == "It is sunny with a light breeze, as the forecast tool reports."


def test_structured_output(anthropic_client):
    message = anthropic_client.messages.parse(
        model=MODEL, max_tokens=256, messages=[{"role": "user", "content": "A forecast for Oslo"}], output_format=Forecast
    )
    assert isinstance(message.parsed_output, Forecast)


def test_image_in_the_prompt(anthropic_client):
    picture = {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PICTURE.read_bytes()).decode()}
    message = anthropic_client.messages.create(
        model=MODEL,
        max_tokens=256,
        messages=[{"role": "user", "content": [{"type": "image", "source": picture}, {"type": "text", "text": "What is this?"}]}],
    )
    # fixtures/media-recognition.yaml answers any image this way.
    assert message.content[0].text == "I can see an image. It looks like a test picture sent to the mock."


def test_model_list(anthropic_client):
    models = {model.id: model for model in anthropic_client.models.list()}
    assert models[MODEL].lifecycle == "active"
    assert anthropic_client.models.retrieve(MODEL).display_name == models[MODEL].display_name


def test_scenario_error_with_retry_header(anthropic_client):
    with pytest.raises(anthropic.RateLimitError) as raised:
        anthropic_client.messages.create(
            model=MODEL,
            max_tokens=256,
            messages=[{"role": "user", "content": "hello"}],
            extra_headers={"x-mock-scenario": "rate_limit"},
        )
    assert raised.value.status_code == 429
    assert raised.value.response.headers["retry-after"] == "1"
