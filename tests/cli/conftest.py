"""pytest configuration of tests/cli: the options some tests take (ctest passes them) and the
fixtures built on them. Every script imports ptovec_cli.py (this folder) for ptovec(*args)."""
import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--default-vectors", metavar="DIR",
                     help="the default suite's folder (test_coverage.py::test_default_suite)")


@pytest.fixture
def default_vectors(request):
    """The default suite's folder (ctest: the mutants fixture's build/vectors-default)."""
    folder = request.config.getoption("--default-vectors")
    if not folder or not os.path.isfile(os.path.join(folder, "manifest.json")):
        pytest.fail(f"no default suite (--default-vectors DIR holding a manifest.json): {folder}")
    return folder
