"""Starting the mock's bin on a free port, and talking to its admin API."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

LISTENING = re.compile(r"listening on (http://\S+)")
START_TIMEOUT_S = 30


def mock_command() -> list[str]:
    """MODEL_GATEWAY_MOCK_BIN (a command line), else the package's bin on PATH."""
    given = os.environ.get("MODEL_GATEWAY_MOCK_BIN")
    if given:
        return shlex.split(given)
    found = shutil.which("model-gateway-mock")
    if not found:
        raise RuntimeError(
            "the model-gateway-mock command is not on PATH. Set MODEL_GATEWAY_MOCK_BIN to the command that starts it: "
            "in a checkout of the mock, after npm install, MODEL_GATEWAY_MOCK_BIN=\"node $PWD/dist/cli.js\"; in a project "
            "that has it in node_modules, MODEL_GATEWAY_MOCK_BIN=\"npx model-gateway-mock\""
        )
    return [found]


def _admin(url: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/__admin{path}", data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{method} /__admin{path} answered {error.code}: {error.read().decode(errors='replace')}") from None


def _expectations(given: Sequence[Any]) -> list:
    if len(given) == 1 and isinstance(given[0], (list, tuple)):
        return list(given[0])
    return list(given)


def _failed_messages(result: dict) -> list[str]:
    return [r["message"] for r in result.get("results", []) if not r.get("ok")]


@dataclass
class GatewayMock:
    """A running mock: its base URL and its oracle."""

    url: str
    process: Optional[subprocess.Popen] = field(default=None, repr=False)

    def verify(self, *expect: Any, session: Optional[str] = None) -> dict:
        """Asks POST /__admin/verify; raises AssertionError with every failed expectation's message.
        Takes the expectations one by one or as one list, as the HTTP and JavaScript forms do."""
        body: dict = {"expect": _expectations(expect)}
        if session is not None:
            body["session"] = session
        result = _admin(self.url, "POST", "/verify", body)
        failed = _failed_messages(result)
        if failed:
            raise AssertionError("the mock saw otherwise:\n- " + "\n- ".join(failed))
        return result

    def journal(self, session: Optional[str] = None) -> list:
        query = f"?session={urllib.request.quote(session)}" if session else ""
        return _admin(self.url, "GET", f"/requests{query}")["requests"]

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class GatewaySession:
    """One test's own session of the mock."""

    mock: GatewayMock
    id: str

    @property
    def url(self) -> str:
        return self.mock.url

    @property
    def headers(self) -> dict:
        return {"x-mock-session": self.id}

    def verify(self, *expect: Any) -> dict:
        return self.mock.verify(*expect, session=self.id)

    def announce(self) -> None:
        """Tells the mock this session exists, so a verify of a test that asks nothing judges "nothing"."""
        _admin(self.mock.url, "POST", "/sessions", {"session": self.id})

    def journal(self) -> list:
        return self.mock.journal(self.id)


def _read_url(stdout, found: queue.Queue) -> None:
    # Keeps reading after the listening line, so a full pipe never blocks the mock.
    for line in stdout:
        match = LISTENING.search(line)
        if match:
            found.put(match.group(1))
    found.put(None)


def start_gateway_mock(args: Sequence[str] = ()) -> GatewayMock:
    """Starts the mock on a free port with no stream pacing; `args` are added to its command line."""
    # The mock ends when its stdin closes: whenever this process ends, however it ends (a CI
    # cancel's SIGTERM, a test's os._exit), the pipe closes with it and so does the mock.
    process = subprocess.Popen(
        [*mock_command(), "--port", "0", "--latency", "none", "--log-level", "error", "--exit-with-stdin", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    found: queue.Queue = queue.Queue()
    threading.Thread(target=_read_url, args=(process.stdout, found), daemon=True).start()
    try:
        url = found.get(timeout=START_TIMEOUT_S)
    except queue.Empty:
        process.kill()
        raise RuntimeError(f"the mock did not listen within {START_TIMEOUT_S} s") from None
    if url is None:
        raise RuntimeError(f"the mock exited with {process.wait()} before it listened")
    return GatewayMock(url=url, process=process)
