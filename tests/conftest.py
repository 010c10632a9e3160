"""Fixtures for every test folder: a PostgreSQL server for the server store's tests (:mod:`tests.postgres_server`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.postgres_server import Cluster, binaries, worker_database


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The address of a PostgreSQL server for the tests: ``UMPIRE_TEST_POSTGRES``, or one started here.

    Skipped only where no server binaries are installed, and never under ``CI=true`` (CI installs them)."""
    given = os.environ.get("UMPIRE_TEST_POSTGRES")
    if given:
        yield given
        return
    found = binaries()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and no PostgreSQL server binaries: the server store's tests must run in CI")
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql)")
    cluster = Cluster.start(found)
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """This worker's own database on the server, emptied for this test."""
    return worker_database(pg_server)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which store backs the test: ``sqlite`` unless the module asks for both (:func:`pytest_generate_tests`)."""
    return str(getattr(request, "param", "sqlite"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test module that names ``BACKENDS = ("sqlite", "postgresql")`` runs each test using the store on each."""
    backends = getattr(metafunc.module, "BACKENDS", None)
    if backends and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends, indirect=True)
