"""The openai Python SDK against the mock: chat completions and responses, whole and streamed,
a tool round trip, structured output, an image, a video task on the manual clock and a scenario
error. Replies come from the repo's fixtures/chat.yaml."""

import base64
import json

import openai
import pytest
from pydantic import BaseModel

GREETING = "Hello! I'm the model-gateway-mock. How can I help you today?"
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


class Forecast(BaseModel):
    city: str
    degrees: int
    sunny: bool


def test_chat_completion_whole_and_streamed(openai_client):
    messages = [{"role": "user", "content": "hello"}]
    whole = openai_client.chat.completions.create(model="gpt-4.1", messages=messages)
    assert whole.choices[0].message.content == GREETING

    stream = openai_client.chat.completions.create(model="gpt-4.1", messages=messages, stream=True)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == GREETING


def test_response_whole_and_streamed(openai_client):
    whole = openai_client.responses.create(model="gpt-4.1", input="hello")
    assert whole.output_text == GREETING

    with openai_client.responses.stream(model="gpt-4.1", input="hello") as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "".join(deltas) == GREETING == final.output_text


def test_tool_call_and_its_result(openai_client):
    messages = [{"role": "user", "content": "What is the weather in Rome?"}]
    first = openai_client.chat.completions.create(model="gpt-4.1", messages=messages, tools=[WEATHER_TOOL])
    call = first.choices[0].message.tool_calls[0]
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Rome"}

    messages += [
        first.choices[0].message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": json.dumps({"temperature": 21})},
    ]
    answer = openai_client.chat.completions.create(model="gpt-4.1", messages=messages, tools=[WEATHER_TOOL])
    assert answer.choices[0].message.content == "It is sunny with a light breeze, as the forecast tool reports."


def test_structured_output(openai_client):
    completion = openai_client.chat.completions.parse(
        model="gpt-4.1", messages=[{"role": "user", "content": "A forecast for Oslo"}], response_format=Forecast
    )
    assert isinstance(completion.choices[0].message.parsed, Forecast)

    response = openai_client.responses.parse(model="gpt-4.1", input="A forecast for Oslo", text_format=Forecast)
    assert isinstance(response.output_parsed, Forecast)


def test_image(openai_client):
    image = openai_client.images.generate(model="gpt-image-1", prompt="a red bicycle", size="1024x1024")
    assert base64.b64decode(image.data[0].b64_json).startswith(b"\x89PNG")


# The SDK warns on every Sora call that OpenAI's service is closing; the mock's is not.
@pytest.mark.filterwarnings("ignore:The Sora API:DeprecationWarning")
def test_video_task_on_the_manual_clock(openai_client, advance_clock):
    # fixtures/videos.yaml: a sora-2 "demo" task starts at once and runs 3 s of mock time.
    video = openai_client.videos.create(model="sora-2", prompt="a demo of the product")
    assert (video.status, video.progress) == ("in_progress", 0)
    advance_clock(1500)
    halfway = openai_client.videos.retrieve(video.id)
    assert (halfway.status, halfway.progress) == ("in_progress", 50)
    advance_clock(1500)
    done = openai_client.videos.retrieve(video.id)
    assert done.status == "completed"
    assert done.progress == 100
    assert openai_client.videos.download_content(video.id).read()[4:8] == b"ftyp"


def test_scenario_error_with_retry_header(openai_client):
    with pytest.raises(openai.RateLimitError) as raised:
        openai_client.chat.completions.create(
            model="gpt-4.1",
            messages=[{"role": "user", "content": "hello"}],
            extra_headers={"x-mock-scenario": "rate_limit"},
        )
    assert raised.value.status_code == 429
    assert raised.value.response.headers["retry-after"] == "1"
