"""Fixtures over the local runtime started by `npm run test:sdk:python` (sdks/conformance/with-runtime.mjs)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

# The SDK from this checkout, without installing it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from messaging_platform import MessagingClient, PlatformClient  # noqa: E402
from support import FaultProxy, Tenant, new_tenant, platform_client  # noqa: E402


@pytest.fixture(scope="module")
def tenant() -> Iterator[Tenant]:
    """One fresh tenant per test module, made on first use."""
    made = new_tenant()
    yield made
    made.close()


@pytest.fixture
def client(tenant: Tenant) -> MessagingClient:
    return tenant.client()


@pytest.fixture
def platform() -> Iterator[PlatformClient]:
    with platform_client() as made:
        yield made


@pytest.fixture
def proxy() -> Iterator[FaultProxy]:
    made = FaultProxy()
    yield made
    made.close()
