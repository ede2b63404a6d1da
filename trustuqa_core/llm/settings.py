"""Where the LLM lives: base URL, model, key and sampling settings.

Resolution order, per field: explicit settings (the app's sidebar) > environment
(``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``TRUSTUQA_MODEL``) > ``.streamlit/secrets.toml``
(same three names, top level). Empty strings count as "not given".

    >>> s = load_settings({"base_url": "http://localhost:11434/v1"}, env={},
    ...                   secrets_path=Path("no-such-secrets.toml"))
    >>> s.model  # the Ollama preset's suggestion
    'llama3.2'
    >>> s.configured, s.n
    (True, 5)
    >>> "sk-" in repr(LLMSettings("https://api.openai.com/v1", "gpt-4o-mini", api_key="sk-x"))
    False
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from trustuqa_core.errors import TrustUQAError

__all__ = [
    "DEFAULT_SECRETS_PATH",
    "ENV_NAMES",
    "PRESETS",
    "LLMSettings",
    "Preset",
    "SettingsError",
    "load_settings",
]

DEFAULT_SECRETS_PATH = Path(".streamlit/secrets.toml")
OPENAI_BASE_URL = "https://api.openai.com/v1"

#: settings field -> name used in the environment and in secrets.toml
ENV_NAMES: dict[str, str] = {
    "api_key": "OPENAI_API_KEY",
    "base_url": "OPENAI_BASE_URL",
    "model": "TRUSTUQA_MODEL",
}


class SettingsError(TrustUQAError):
    """LLM settings are invalid (bad value, unreadable secrets file). Never shows a secret."""


@dataclass(frozen=True)
class Preset:
    """A known OpenAI-compatible server: where it usually listens and a model to suggest."""

    name: str
    base_url: str
    model: str
    needs_key: bool
    doc: str
    placeholder_key: str = "not-needed"

    def to_explicit(self) -> dict[str, str]:
        """The explicit settings this preset stands for (feed to ``load_settings``)."""
        return {"base_url": self.base_url, "model": self.model}


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "OpenAI",
            OPENAI_BASE_URL,
            "gpt-4o-mini",
            True,
            "OpenAI's hosted API; needs OPENAI_API_KEY.",
        ),
        Preset(
            "Ollama",
            "http://localhost:11434/v1",
            "llama3.2",
            False,
            "Local Ollama (`ollama serve`); no key, a placeholder is sent.",
            "ollama",
        ),
        Preset(
            "vLLM",
            "http://localhost:8000/v1",
            "Qwen/Qwen2.5-7B-Instruct",
            False,
            "vLLM's OpenAI server (`vllm serve <model>`); key only if started with --api-key.",
        ),
        Preset(
            "LM Studio",
            "http://localhost:1234/v1",
            "qwen2.5-7b-instruct",
            False,
            "LM Studio's local server (Developer tab); no key needed.",
            "lm-studio",
        ),
    )
}


def _preset_for(base_url: str) -> Preset | None:
    norm = base_url.rstrip("/")
    return next((p for p in PRESETS.values() if p.base_url == norm), None)


@dataclass(frozen=True)
class LLMSettings:
    """Connection and sampling settings. ``repr``/``str`` never show the key.

    Attributes:
        base_url: OpenAI-compatible endpoint, e.g. ``http://localhost:11434/v1``.
        model: model name as the server knows it.
        api_key: secret; ``None`` for servers that need none.
        temperature: sampling temperature for self-consistency (0..2).
        timeout_s: per-request timeout in seconds.
        max_retries: retries on 429 / 5xx / timeouts / connection errors (0..10).
        n: self-consistency samples per question.
    """

    base_url: str = ""
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    temperature: float = 0.7
    timeout_s: float = 60.0
    max_retries: int = 3
    n: int = 5

    def __post_init__(self) -> None:
        problems = []
        if not 0.0 <= self.temperature <= 2.0:
            problems.append(f"temperature must be in [0, 2], got {self.temperature}")
        if not self.timeout_s > 0:
            problems.append(f"timeout_s must be > 0, got {self.timeout_s}")
        if not 0 <= self.max_retries <= 10:
            problems.append(f"max_retries must be in [0, 10], got {self.max_retries}")
        if not 1 <= self.n <= 50:
            problems.append(f"n must be in [1, 50], got {self.n}")
        if self.base_url and urlsplit(self.base_url).scheme not in ("http", "https"):
            problems.append(f"base_url must start with http:// or https://, got {self.base_url!r}")
        if problems:
            raise SettingsError("invalid LLM settings: " + "; ".join(problems))

    @property
    def needs_key(self) -> bool:
        """True for OpenAI's hosted API (local servers accept any placeholder key)."""
        return urlsplit(self.base_url).hostname == "api.openai.com"

    @property
    def configured(self) -> bool:
        """True when there is enough to make a call: base URL, model and (if needed) a key."""
        return bool(self.base_url and self.model and (self.api_key or not self.needs_key))

    @property
    def key_to_send(self) -> str:
        """The key for the Authorization header: the real one or a harmless placeholder."""
        if self.api_key:
            return self.api_key
        preset = _preset_for(self.base_url)
        return preset.placeholder_key if preset else "not-needed"

    def __repr__(self) -> str:
        shown = "'***'" if self.api_key else "None"
        return (
            f"LLMSettings(base_url={self.base_url!r}, model={self.model!r}, api_key={shown}, "
            f"temperature={self.temperature}, timeout_s={self.timeout_s}, "
            f"max_retries={self.max_retries}, n={self.n})"
        )

    __str__ = __repr__


_FIELDS = tuple(f.name for f in fields(LLMSettings))
_CONVERTERS: dict[str, type] = {
    "temperature": float,
    "timeout_s": float,
    "max_retries": int,
    "n": int,
}


def load_settings(
    explicit: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    secrets_path: Path | None = None,
) -> LLMSettings:
    """Resolve settings: explicit > environment > secrets file > defaults.

    Args:
        explicit: field name -> value (``None`` / ``""`` mean "not given").
        env: defaults to ``os.environ``.
        secrets_path: a TOML file (default ``.streamlit/secrets.toml`` in the working
            directory, as Streamlit uses); a missing file is fine.

    Defaults when nothing names them: with a key but no base URL, OpenAI's URL; a model
    suggestion when the base URL is a preset's.

    Raises:
        SettingsError: unknown explicit field, bad value, or a malformed secrets file.
    """
    explicit = dict(explicit or {})
    unknown = sorted(set(explicit) - set(_FIELDS))
    if unknown:
        raise SettingsError(f"unknown LLM setting(s) {unknown}; known: {list(_FIELDS)}")
    env = os.environ if env is None else env
    secrets = _read_secrets(DEFAULT_SECRETS_PATH if secrets_path is None else secrets_path)
    values: dict[str, Any] = {}
    for name in _FIELDS:
        layers = [explicit.get(name)]
        if name in ENV_NAMES:
            layers += [env.get(ENV_NAMES[name]), secrets.get(ENV_NAMES[name])]
        chosen = next((v for v in layers if v is not None and v != ""), None)
        if chosen is not None:
            values[name] = _convert(name, chosen)
    if "base_url" in values:
        values["base_url"] = values["base_url"].strip().rstrip("/")
    elif values.get("api_key"):
        values["base_url"] = OPENAI_BASE_URL
    preset = _preset_for(values.get("base_url", ""))
    if "model" not in values and preset is not None:
        values["model"] = preset.model
    return LLMSettings(**values)


def _convert(name: str, value: Any) -> Any:
    kind = _CONVERTERS.get(name, str)
    if kind is str:
        if not isinstance(value, str):
            raise SettingsError(f"LLM setting {name!r} must be text, got {type(value).__name__}")
        return value.strip()
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise SettingsError(f"LLM setting {name!r} must be a number") from None


def _read_secrets(path: Path) -> dict[str, Any]:
    """Top-level values of a secrets TOML file; ``{}`` when it does not exist.

    The error for a malformed file names the file and the position only: TOML parser
    messages can quote the offending text, which may be a key.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise SettingsError(f"cannot read secrets file {path}: {err.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SettingsError(f"secrets file {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        where = re.search(r"\(at (line \d+, column \d+|end of document)\)", str(err))
        at = f" ({where.group(1)})" if where else ""
        raise SettingsError(f"secrets file {path} is not valid TOML{at}") from None
    return data
