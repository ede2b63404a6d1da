"""Where the LLM lives: base URL, model, key and sampling settings.

Resolution order, per field: explicit settings (the app's sidebar) > environment
(``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``TRUSTUQA_MODEL``) > ``.streamlit/secrets.toml``
(same three names, top level). Empty strings count as "not given".

The operator's key (environment or secrets file) is only ever paired with the operator's base
URL (``OPENAI_BASE_URL`` there, OpenAI's when unset): settings that name another server get
no key unless one is given explicitly. :func:`visitor_settings` is what the app uses: it also
honours the operator's ``lock_llm_settings`` flag and refuses, with a clear message, a visitor's
own server when the operator has a key and the visitor gave none.

    >>> s = load_settings({"base_url": "http://localhost:11434/v1"}, env={},
    ...                   secrets_path=Path("no-such-secrets.toml"))
    >>> s.model, s.extra_body, s.context_tokens  # the Ollama preset's suggestion
    ('llama3.1', {'options': {'num_ctx': 16384}}, 16384)
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
from trustuqa_core.limits import current_limits
from trustuqa_core.llm.budget import context_window

__all__ = [
    "DEFAULT_SECRETS_PATH",
    "display_url",
    "ENV_NAMES",
    "FLAG_NAMES",
    "PRESETS",
    "KeyRequired",
    "LLMSettings",
    "Operator",
    "Preset",
    "SettingsError",
    "load_settings",
    "operator_config",
    "visitor_settings",
]

DEFAULT_SECRETS_PATH = Path(".streamlit/secrets.toml")
OPENAI_BASE_URL = "https://api.openai.com/v1"

#: settings field -> name used in the environment and in secrets.toml
ENV_NAMES: dict[str, str] = {
    "api_key": "OPENAI_API_KEY",
    "base_url": "OPENAI_BASE_URL",
    "model": "TRUSTUQA_MODEL",
}

#: operator switch -> environment variable (the secrets file uses the switch name itself)
FLAG_NAMES: dict[str, str] = {
    "lock_llm_settings": "TRUSTUQA_LOCK_LLM_SETTINGS",
    "shared_user_demos": "TRUSTUQA_SHARED_USER_DEMOS",
}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}


class SettingsError(TrustUQAError):
    """LLM settings are invalid (bad value, unreadable secrets file). Never shows a secret."""


class KeyRequired(SettingsError):
    """A visitor chose a server other than the operator's without giving their own key."""


@dataclass(frozen=True)
class Preset:
    """A known OpenAI-compatible server: where it usually listens and a model to suggest."""

    name: str
    base_url: str
    model: str
    needs_key: bool
    doc: str
    placeholder_key: str = "not-needed"
    options: Mapping[str, Any] = field(default_factory=dict)

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
            "llama3.1",
            False,
            "Local Ollama (`ollama pull llama3.1`, `ollama serve`); no key, a placeholder is "
            "sent. The context is set to 16,384 tokens (options.num_ctx): Ollama's default "
            "(2,048-4,096) drops the start of a long prompt, the instructions.",
            "ollama",
            {"num_ctx": 16384},
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
        timeout_s: longest wait for the next bytes of one reply (per read).
        max_retries: retries on 429 / 5xx / timeouts / connection errors (0..10).
        n: self-consistency samples per question.
        question_seconds: wall-clock budget of all LLM calls of one question, retries
            included (default: the ``llm_seconds_per_question`` limit).
        question_calls: most HTTP requests to the LLM for one question (default: the
            ``llm_calls_per_question`` limit).
    """

    base_url: str = ""
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    temperature: float = 0.7
    timeout_s: float = field(default_factory=lambda: current_limits().llm_read_timeout_s)
    max_retries: int = 3
    n: int = 5
    question_seconds: float = field(
        default_factory=lambda: current_limits().llm_seconds_per_question)
    question_calls: int = field(default_factory=lambda: current_limits().llm_calls_per_question)

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
        if not self.question_seconds > 0:
            problems.append(f"question_seconds must be > 0, got {self.question_seconds}")
        if not self.question_calls >= 1:
            problems.append(f"question_calls must be >= 1, got {self.question_calls}")
        parts = urlsplit(self.base_url)
        if self.base_url and parts.scheme not in ("http", "https"):
            problems.append(f"base_url must start with http:// or https://, got {self.base_url!r}")
        elif self.base_url and (parts.query or parts.fragment or "?" in self.base_url):
            problems.append("base_url must not have a query (?...) or fragment (#...)")
        if problems:
            raise SettingsError("invalid LLM settings: " + "; ".join(problems))

    @property
    def needs_key(self) -> bool:
        """True for OpenAI's hosted API (local servers accept any placeholder key)."""
        return urlsplit(self.base_url).hostname == "api.openai.com"

    @property
    def extra_body(self) -> dict[str, Any]:
        """Server-specific request fields: ``{"options": {...}}`` for a preset that has
        options (Ollama's ``num_ctx``), else nothing."""
        preset = _preset_for(self.base_url)
        return {"options": dict(preset.options)} if preset and preset.options else {}

    @property
    def context_tokens(self) -> int | None:
        """The model's context window as far as known (``num_ctx`` when one is sent, else the
        model family's; None when unknown), see :mod:`~trustuqa_core.llm.budget`."""
        preset = _preset_for(self.base_url)
        num_ctx = preset.options.get("num_ctx") if preset else None
        return context_window(self.model, int(num_ctx) if num_ctx else None)

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
            f"max_retries={self.max_retries}, n={self.n}, "
            f"question_seconds={self.question_seconds}, question_calls={self.question_calls})"
        )

    __str__ = __repr__


_FIELDS = tuple(f.name for f in fields(LLMSettings))
_CONVERTERS: dict[str, type] = {
    "temperature": float,
    "timeout_s": float,
    "max_retries": int,
    "n": int,
    "question_seconds": float,
    "question_calls": int,
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
    operator: dict[str, Any] = {}
    for name in _FIELDS:
        layers = [explicit.get(name)]
        if name in ENV_NAMES:
            layers += [env.get(ENV_NAMES[name]), secrets.get(ENV_NAMES[name])]
            operator[name] = next((v for v in layers[1:] if v is not None and v != ""), None)
        chosen = next((v for v in layers if v is not None and v != ""), None)
        if chosen is not None:
            values[name] = _convert(name, chosen)
    if "base_url" in values:
        values["base_url"] = values["base_url"].strip().rstrip("/")
    elif values.get("api_key"):
        values["base_url"] = OPENAI_BASE_URL
    if not explicit.get("api_key") and values.get("base_url") != _operator_url(operator):
        values.pop("api_key", None)  # the operator's key goes to the operator's server only
    preset = _preset_for(values.get("base_url", ""))
    if "model" not in values and preset is not None:
        values["model"] = preset.model
    return LLMSettings(**values)


def _operator_url(operator: Mapping[str, Any]) -> str:
    """The base URL the operator's key belongs to: theirs, or OpenAI's when they named none."""
    url = operator.get("base_url")
    return _convert("base_url", url).rstrip("/") if url else OPENAI_BASE_URL


@dataclass(frozen=True)
class Operator:
    """What the operator configured (environment and secrets file), without the key itself.

    Attributes:
        base_url: where the operator's key may be sent.
        has_key: an operator key exists.
        lock_llm_settings: visitors cannot change the LLM connection (Settings shows it
            read-only and any value kept in a session is ignored).
        shared_user_demos: thumbs-up demonstrations go to one store shared by all sessions
            (``$TRUSTUQA_CACHE/user_demos.jsonl``); off by default: they stay in the session.
    """

    base_url: str
    has_key: bool
    lock_llm_settings: bool = False
    shared_user_demos: bool = False


def operator_config(env: Mapping[str, str] | None = None,
                    secrets_path: Path | None = None) -> Operator:
    """The operator's configuration: environment first, then ``.streamlit/secrets.toml``.

    >>> op = operator_config({"TRUSTUQA_LOCK_LLM_SETTINGS": "1"}, Path("no-such.toml"))
    >>> op.lock_llm_settings, op.shared_user_demos, op.base_url, op.has_key
    (True, False, 'https://api.openai.com/v1', False)
    """
    env = os.environ if env is None else env
    secrets = _read_secrets(DEFAULT_SECRETS_PATH if secrets_path is None else secrets_path)

    def first(env_name: str, secret_name: str) -> Any:
        return next((v for v in (env.get(env_name), secrets.get(secret_name))
                     if v is not None and v != ""), None)

    flags = {name: _flag(name, first(var, name)) for name, var in FLAG_NAMES.items()}
    url = first(ENV_NAMES["base_url"], ENV_NAMES["base_url"])
    has_key = first(ENV_NAMES["api_key"], ENV_NAMES["api_key"]) is not None
    return Operator(_operator_url({"base_url": url}), has_key, **flags)


def _flag(name: str, value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().casefold()
    if text in _TRUE | _FALSE:
        return text in _TRUE
    raise SettingsError(f"operator setting {name!r} must be true or false, got {value!r}")


def visitor_settings(page: Mapping[str, Any], visitor_key: str | None, *,
                     env: Mapping[str, str] | None = None,
                     secrets_path: Path | None = None) -> LLMSettings:
    """Settings for a visitor of the app: what they chose on the Settings page, under the
    operator's rules.

    With ``lock_llm_settings`` the page's ``base_url``, ``model`` and the visitor's key are
    ignored (sampling settings ``n`` / ``temperature`` still apply). Otherwise a server other
    than the operator's needs the visitor's own key when the operator has one.

    Raises:
        KeyRequired: the visitor chose another server and gave no key (nothing is sent).
        SettingsError: invalid values.

    >>> op_env = {"OPENAI_API_KEY": "sk-operator", "OPENAI_BASE_URL": "http://op:1/v1"}
    >>> visitor_settings({"base_url": "http://evil:2/v1", "model": "m"}, None, env=op_env,
    ...                  secrets_path=Path("no-such.toml"))
    Traceback (most recent call last):
    ...
    trustuqa_core.llm.settings.KeyRequired: this app's own API key is only sent to http://op:1/v1; \
to use http://evil:2/v1, enter your own API key (for a local server that needs none, any text, \
e.g. ollama)
    """
    op = operator_config(env, secrets_path)
    sampling = {k: page[k] for k in ("n", "temperature", "question_seconds", "question_calls")
                if page.get(k) is not None}
    if op.lock_llm_settings:
        return load_settings(sampling, env, secrets_path)
    explicit = {**sampling, "base_url": page.get("base_url"), "model": page.get("model"),
                "api_key": visitor_key}
    settings = load_settings(explicit, env, secrets_path)
    if (op.has_key and not visitor_key and settings.base_url
            and settings.base_url != op.base_url):
        raise KeyRequired(
            f"this app's own API key is only sent to {display_url(op.base_url)}; to use "
            f"{display_url(settings.base_url)}, enter your own API key (for a local server that "
            "needs none, any text, e.g. ollama)")
    return settings


def display_url(url: str) -> str:
    """A URL safe to show: without any ``user:password@`` part.

    >>> display_url("http://bob:pw@h:1/v1")
    'http://h:1/v1'
    """
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    return parts._replace(netloc=f"{host}:{parts.port}" if parts.port else host).geturl()


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
