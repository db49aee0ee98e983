"""The plugin as a user's suite meets it: an inner test run by pytester with the plugin installed.
The mock is the package's bin (MODEL_GATEWAY_MOCK_BIN in CI: `node dist/cli.js`)."""

import json
import urllib.error
import urllib.request

INNER = '''
import json, urllib.request

def ask(session, text):
    body = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}).encode()
    headers = {"content-type": "application/json", "authorization": "Bearer test", **session.headers}
    request = urllib.request.Request(f"{session.url}/v1/chat/completions", data=body, headers=headers)
    with urllib.request.urlopen(request) as response:
        assert response.status == 200

def test_first(gateway_session, gateway_mock):
    open("mock-url.txt", "w").write(gateway_mock.url)
    ask(gateway_session, "hello from the first")
    gateway_session.verify({"requests": {"text": "first"}, "count": 1})
    assert [e["session"] for e in gateway_session.journal()] == [gateway_session.id]

def test_second(gateway_session):
    ask(gateway_session, "hello from the second")
    ask(gateway_session, "and again")
    gateway_session.verify({"requests": {"path": "/v1/chat/completions"}, "count": 2})
    assert len(gateway_session.journal()) == 2

def test_a_verify_that_fails(gateway_session):
    ask(gateway_session, "hello")
    gateway_session.verify({"requests": {"path": "/v1/embeddings"}})
'''


def test_session_mock_per_test_sessions_and_verify(pytester):
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*AssertionError: the mock saw otherwise:*", "*/v1/embeddings*"])
    url = (pytester.path / "mock-url.txt").read_text()
    try:
        urllib.request.urlopen(f"{url}/__admin/health", timeout=2)
        raise AssertionError("the mock is still listening after the session")
    except urllib.error.URLError:
        pass


def test_extra_arguments_reach_the_mock(pytester):
    pytester.makeconftest('''
import pytest

@pytest.fixture(scope="session")
def gateway_mock_args():
    return ["--clock", "2030-01-02T03:04:05Z"]
''')
    pytester.makepyfile(test_clock='''
import json, urllib.request

def test_clock(gateway_mock):
    with urllib.request.urlopen(f"{gateway_mock.url}/__admin/clock") as response:
        assert json.loads(response.read())["now"].startswith("2030-01-02T03:04:05")
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


ENDS_ABRUPTLY = '''
import os, signal

def test_ends(gateway_mock):
    open("mock-url.txt", "w").write(gateway_mock.url)
    {end}
'''


def _mock_ends_with(pytester, end):
    """Runs an inner suite that ends pytest with `end`, and waits for its mock to stop listening."""
    import time

    pytester.makepyfile(test_abrupt=ENDS_ABRUPTLY.format(end=end))
    pytester.runpytest_subprocess("-p", "no:cacheprovider")
    url = (pytester.path / "mock-url.txt").read_text()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/__admin/health", timeout=1)
        except urllib.error.URLError as error:
            if isinstance(error.reason, ConnectionRefusedError):
                return
        except OSError:
            pass  # a connection taken as the mock stopped: ask again
        time.sleep(0.05)
    raise AssertionError("the mock is still listening 5 s after pytest ended")


def test_the_mock_ends_when_a_test_exits_the_process(pytester):
    _mock_ends_with(pytester, "os._exit(3)")


def test_the_mock_ends_when_pytest_is_terminated(pytester):
    _mock_ends_with(pytester, "os.kill(os.getpid(), signal.SIGTERM)")


def test_a_mock_that_cannot_start_ends_the_run_once_with_how_to_point_at_it(pytester, monkeypatch):
    monkeypatch.delenv("MODEL_GATEWAY_MOCK_BIN", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    pytester.makepyfile(test_many="\n".join(f"def test_{i}(gateway_session):\n    pass\n" for i in range(5)))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    output = result.stdout.str() + result.stderr.str()
    assert output.count("is not on PATH") == 1, output
    assert "npm install -g" not in output
    assert result.ret == 4


def test_verify_takes_a_list_and_passes_nothing_asked_on_an_announced_session(pytester):
    pytester.makepyfile(test_list='''
def test_nothing_asked(gateway_session):
    gateway_session.verify([{"no_generated": True}, {"requests": {}, "count": {"max": 0}}])

def test_a_misspelled_session_fails(gateway_mock):
    gateway_mock.verify({"max_tokens": 10}, session="never-used")
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*never heard of session 'never-used'*"])
