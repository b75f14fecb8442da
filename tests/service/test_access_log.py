"""The web processes' gunicorn logger builds a request's access line only when it writes one."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from gunicorn.config import Config

from service.access_log import AccessOnDemandLogger
from service.logs import logging_config


def logger(accesslog: str | None) -> AccessOnDemandLogger:
    cfg = Config()
    cfg.set("logconfig_dict", logging_config(access_log=accesslog is not None, environ={}))
    cfg.set("accesslog", accesslog)
    return AccessOnDemandLogger(cfg)


def counting_atoms(log: AccessOnDemandLogger, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    built: list[int] = []

    def atoms(*args: Any) -> dict[str, str]:
        built.append(1)
        return {}

    monkeypatch.setattr(log, "atoms", atoms)
    return built


def test_without_an_access_log_no_access_line_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    log = logger(None)
    built = counting_atoms(log, monkeypatch)
    log.access(object(), object(), {}, None)
    assert built == []


def test_with_an_access_log_the_access_line_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    log = logger("-")
    built = counting_atoms(log, monkeypatch)
    log.access(object(), object(), {}, None)
    assert built == [1]


def test_the_deployed_configuration_names_the_logger() -> None:
    conf = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
    # Read, not run: running the file would set this process's metrics directory.
    named = [
        node.value.value
        for node in ast.parse(conf.read_text()).body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["logger_class"]
        and isinstance(node.value, ast.Constant)
    ]
    cfg = Config()
    cfg.set("logger_class", named[0])
    assert cfg.logger_class is AccessOnDemandLogger
