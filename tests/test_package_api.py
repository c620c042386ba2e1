"""Each package names its public API in `__all__`, and every name there resolves without importing the rest."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["evidence", "qc", "pipeline"])
def test_every_public_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__ and sorted(module.__all__) == sorted(module._EXPORTS), package
    for name in module.__all__:
        assert getattr(module, name) is not None, f"{package}.{name}"
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_importing_a_package_loads_none_of_its_stages() -> None:
    code = "import sys, evidence, qc, pipeline; print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in {'evidence', 'qc', 'pipeline', 'pypdf', 'langchain', 'jinja2'})))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert sorted(loaded) == ["evidence", "evidence.lazy", "pipeline", "qc"], loaded  # the loader only, no stage


def test_each_stage_raises_its_errors_from_its_own_package() -> None:
    from evidence.errors import PublishError
    from pipeline.errors import BuildError, DraftError
    from qc.errors import AwaitingReview, QCFailed

    assert {QCFailed.exit_code, AwaitingReview.exit_code, DraftError.exit_code, BuildError.exit_code} == {1, 3, 2}
    assert all(issubclass(e, PublishError) for e in (QCFailed, AwaitingReview, DraftError, BuildError))
    import evidence.errors

    assert not hasattr(evidence.errors, "QCFailed") and not hasattr(evidence.errors, "BuildError")
