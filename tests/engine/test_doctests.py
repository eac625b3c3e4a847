"""The engine's docstring examples run as tests (they narrate the arithmetic)."""

import doctest
import importlib

import pytest

MODULES = ["ndcg_core.metrics", "ndcg_core._checks", "ndcg_core.evaluate", "ndcg_core.io",
           "ndcg_core.options", "ndcg_core.compare", "ndcg_core._ranx",
           "ndcg_core._ids", "ndcg_core._ranking"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name == "ndcg_core.metrics":
        assert result.attempted >= 10  # the examples really ran
