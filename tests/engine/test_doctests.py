"""The engine's docstring examples run as tests (they narrate the arithmetic)."""

import doctest
import importlib
import pkgutil

import pytest

import ndcg_core as nc

# every module, found by walking the package (a module split out tomorrow is not forgotten);
# __main__ is the command line, run by tests/engine/test_cli.py
MODULES = sorted(f"ndcg_core.{m.name}" for m in pkgutil.iter_modules(nc.__path__)
                 if m.name != "__main__")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name == "ndcg_core.metrics":
        assert result.attempted >= 10  # the examples really ran
