"""Starts the mock once for the test session and gives the tests clients pointed at it.

The mock runs as its own process (the package's bin) on a free port, with the repo's fixtures and
scenarios, no stream pacing and a manual clock that only `POST /__admin/clock` moves. In your own
project, set MOCK_COMMAND to how you start it there, e.g. `npx model-gateway-mock`.
"""

import json
import os
import queue
import re
import shlex
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import anthropic
import openai
import pytest
from google import genai
from google.genai import types

REPO = Path(__file__).resolve().parents[2]
COMMAND = shlex.split(os.environ.get("MOCK_COMMAND", f"node {REPO / 'dist' / 'cli.js'}"))
LISTENING = re.compile(r"listening on (http://\S+)")
START_TIMEOUT_S = 30


def _read_url(stdout, found: queue.Queue) -> None:
    # Keeps reading after the listening line, so a full pipe never blocks the mock.
    for line in stdout:
        match = LISTENING.search(line)
        if match:
            found.put(match.group(1))
    found.put(None)


def _wait_until_answers(url: str, deadline: float) -> None:
    while True:
        try:
            with urllib.request.urlopen(f"{url}/__admin/health", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the mock at {url} did not answer within {START_TIMEOUT_S} s")
        time.sleep(0.05)


@pytest.fixture(scope="session")
def mock_url():
    """The base URL of a mock started for this test session, e.g. http://127.0.0.1:40123."""
    process = subprocess.Popen(
        [
            *COMMAND,
            "--port", "0",
            "--fixtures", str(REPO / "fixtures"),
            "--scenarios", str(REPO / "scenarios"),
            "--latency", "none",
            "--clock", "manual",
            "--log-level", "error",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    found: queue.Queue = queue.Queue()
    threading.Thread(target=_read_url, args=(process.stdout, found), daemon=True).start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        url = found.get(timeout=START_TIMEOUT_S)
        if url is None:
            raise RuntimeError(f"the mock exited with {process.wait()} before it listened")
        _wait_until_answers(url, deadline)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


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
