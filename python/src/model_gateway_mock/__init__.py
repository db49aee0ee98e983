"""pytest fixtures for model-gateway-mock: the mock as a test-session fixture, a mock session per
test, and the mock's verify (POST /__admin/verify) as assertions."""

from .gateway import GatewayMock, GatewaySession, start_gateway_mock

__all__ = ["GatewayMock", "GatewaySession", "start_gateway_mock"]
