"""A test that needs a tool `make test` installs (Debian's Chromium, Caddy, certutil,
zbarimg, openssl) skips where the tool is missing, but fails under CI (CI=true): there
a skip would let a run pass whose test never ran (tests/helpers.py, tool_missing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import ROOT, tool_missing

TINY = """
import shutil

from tests.helpers import tool_missing


def test_the_table_under_caddy():
    if not shutil.which("caddy"):
        tool_missing("Debian's caddy is not installed (make test installs it)")
"""


def test_a_run_under_ci_with_a_tool_missing_fails(tmp_path):
    (tmp_path / "test_tiny.py").write_text(TINY)
    env = {
        **os.environ,
        "CI": "true",  # as CI services set it
        # a PATH with Python's tools alone: no caddy on it, as on a machine without it
        "PATH": str(Path(sys.executable).parent),
        "PYTHONPATH": str(ROOT),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # pytest alone: the tiny file needs no more
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rf", "test_tiny.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout and "skipped" not in done.stdout, done.stdout
    assert (
        "Debian's caddy is not installed (make test installs it); under CI every test runs"
        in done.stdout
    )


@pytest.mark.parametrize(
    ("ci", "outcome"),
    [("true", pytest.fail.Exception), ("1", pytest.fail.Exception)]
    + [(None, pytest.skip.Exception), ("", pytest.skip.Exception)]
    + [("false", pytest.skip.Exception), ("0", pytest.skip.Exception)],
)
def test_a_missing_tool_fails_only_where_the_environment_says_ci(monkeypatch, ci, outcome):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="make test installs it"):
        tool_missing("Debian's openssl is not installed (make test installs it)")
