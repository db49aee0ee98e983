"""The pytest11 entry point: `gateway_mock`, `gateway_session` and `gateway_mock_args`."""

from __future__ import annotations

import hashlib

import pytest

from .gateway import GatewayMock, GatewaySession, start_gateway_mock


@pytest.fixture(scope="session")
def gateway_mock_args() -> list:
    """Extra arguments for the mock's command line; override it in conftest.py."""
    return []


@pytest.fixture(scope="session")
def gateway_mock(gateway_mock_args) -> GatewayMock:
    """One mock for the test session, on a free port, stopped at the end. A mock that cannot start
    ends the run with one message, not one error per test."""
    try:
        mock = start_gateway_mock(gateway_mock_args)
    except RuntimeError as error:
        pytest.exit(f"model-gateway-mock: {error}", returncode=pytest.ExitCode.USAGE_ERROR)
    try:
        yield mock
    finally:
        mock.stop()


@pytest.fixture
def gateway_session(gateway_mock, request) -> GatewaySession:
    """A session of the mock for this test alone: its id is the test's node id, hashed."""
    digest = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    session = GatewaySession(mock=gateway_mock, id=f"pytest-{digest}")
    session.announce()
    return session
