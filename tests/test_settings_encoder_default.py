"""The Settings page's default encoder: the sentence model when its package is installed."""

from __future__ import annotations

import importlib.util
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

import pytest

from trustuqa_core.app_services import page_settings
from trustuqa_core.app_services.page_settings import (
    MODEL_PACKAGE,
    AppSettings,
    default_encoder_choice,
)

_REAL_FIND_SPEC = importlib.util.find_spec
SETTINGS_PAGE = Path(__file__).resolve().parents[1] / "pages" / "4_Settings.py"


def _pretend(installed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the model package look installed (or not); every other lookup is untouched."""

    def find_spec(name: str, *args: Any, **kwargs: Any) -> ModuleSpec | None:
        if name == MODEL_PACKAGE:
            return ModuleSpec(name, None) if installed else None
        return _REAL_FIND_SPEC(name, *args, **kwargs)

    monkeypatch.setattr(page_settings.importlib.util, "find_spec", find_spec)


def test_default_is_the_sentence_model_when_its_package_is_installed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend(True, monkeypatch)
    assert default_encoder_choice() == "minilm"
    assert AppSettings().encoder == "minilm"


def test_default_falls_back_to_lexical_without_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend(False, monkeypatch)
    assert default_encoder_choice() == "lexical"
    assert AppSettings().encoder == "lexical"
    assert AppSettings(encoder="minilm").encoder == "minilm"  # an explicit choice stays


def test_default_follows_this_environment() -> None:
    installed = _REAL_FIND_SPEC(MODEL_PACKAGE) is not None
    assert AppSettings().encoder == ("minilm" if installed else "lexical")


def test_settings_page_says_why_the_default_is_lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    _pretend(False, monkeypatch)
    at = AppTest.from_file(str(SETTINGS_PAGE), default_timeout=60).run()
    captions = " ".join(c.value for c in at.caption)
    assert "sentence model is not installed" in captions
    radio = next(r for r in at.radio if r.label == "Mapping encoder")
    assert radio.value == "lexical"
