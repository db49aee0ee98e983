"""The mock for these examples comes from the model-gateway-mock pytest plugin (`pip install ./python`):
one mock for the test session, started from the package's bin (on PATH, or the command in
MODEL_GATEWAY_MOCK_BIN, e.g. `node dist/cli.js`) on a free port. Here it gets the repo's fixtures and
scenarios and a manual clock that only `POST /__admin/clock` moves.
"""

import json
import urllib.request
from pathlib import Path

import anthropic
import openai
import pytest
from google import genai
from google.genai import types

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gateway_mock_args():
    return ["--fixtures", str(REPO / "fixtures"), "--scenarios", str(REPO / "scenarios"), "--clock", "manual"]


@pytest.fixture(scope="session")
def mock_url(gateway_mock):
    """The base URL of the mock the plugin started, e.g. http://127.0.0.1:40123."""
    return gateway_mock.url


@pytest.fixture
def advance_clock(mock_url):
    """Moves the mock clock by `ms` milliseconds, as `POST /__admin/clock` does."""

    def advance(ms: int) -> None:
        request = urllib.request.Request(
            f"{mock_url}/__admin/clock",
            data=json.dumps({"advance_ms": ms}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request) as response:
            assert response.status == 200

    return advance


# Strict validation makes the SDK refuse any response that does not fit its types, so a missing
# or mistyped field fails the test instead of passing unnoticed. No retries: one call, one request.
@pytest.fixture
def openai_client(mock_url):
    return openai.OpenAI(base_url=f"{mock_url}/v1", api_key="sk-test", max_retries=0, _strict_response_validation=True)


@pytest.fixture
def anthropic_client(mock_url):
    return anthropic.Anthropic(base_url=mock_url, api_key="sk-test", max_retries=0, _strict_response_validation=True)


@pytest.fixture
def genai_client(mock_url):
    # google-genai has no strict mode; its pydantic types still check every field they declare.
    return genai.Client(api_key="sk-test", http_options=types.HttpOptions(base_url=mock_url))
