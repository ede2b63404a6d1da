"""Chat completions from any OpenAI-compatible server, with retries, caching and no key leaks.

The real ``openai`` package does the HTTP; its own retries are switched off so that this
module decides (bounded exponential backoff, injectable ``sleep``). Every error raised to
callers is an :class:`LLMError` whose message names the base URL and the problem and has
the API key scrubbed out (also from text the server sent back).

    >>> issubclass(LLMRateLimited, LLMError), LLMAuthError.problem
    (True, 'auth')
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

from trustuqa_core.errors import TrustUQAError
from trustuqa_core.llm.cache import ResponseCache, request_key
from trustuqa_core.llm.settings import LLMSettings

if TYPE_CHECKING:
    import openai
else:

    class _Lazy:
        """The ``openai`` package, imported on first use (~0.6 s): the offline writer and
        hand-written queries never pay for it."""

        def __getattr__(self, name: str) -> Any:
            return getattr(import_module("openai"), name)

    openai = _Lazy()

__all__ = [
    "ConnectionStatus",
    "LLMAuthError",
    "LLMBadResponse",
    "LLMClient",
    "LLMError",
    "LLMHTTPError",
    "LLMModelNotFound",
    "LLMNotConfigured",
    "LLMRateLimited",
    "LLMUnreachable",
    "Problem",
    "redact",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
Problem = Literal[
    "not_configured",
    "unreachable",
    "auth",
    "unknown_model",
    "rate_limited",
    "http_error",
    "bad_response",
]
MAX_N = 50
_SNIPPET = 200


# -- errors ----------------------------------------------------------------------------
class LLMError(TrustUQAError):
    """Base of LLM errors. ``base_url`` and ``status`` (HTTP code or None) are attributes."""

    problem: Problem = "http_error"

    def __init__(self, message: str, *, base_url: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.base_url = base_url
        self.status = status


class LLMNotConfigured(LLMError):
    """No base URL, model or (for OpenAI) key: nothing to call."""

    problem: Problem = "not_configured"


class LLMUnreachable(LLMError):
    """Connection refused, DNS failure or timeout, after retries."""

    problem: Problem = "unreachable"


class LLMAuthError(LLMError):
    """HTTP 401/403: the key is missing, wrong or not allowed."""

    problem: Problem = "auth"


class LLMModelNotFound(LLMError):
    """The model is not served there (not listed, or 404 on completion)."""

    problem: Problem = "unknown_model"


class LLMRateLimited(LLMError):
    """HTTP 429 still returned after retries (rate limit or exhausted quota)."""

    problem: Problem = "rate_limited"


class LLMHTTPError(LLMError):
    """Any other HTTP error status (400, 422, 5xx after retries...)."""

    problem: Problem = "http_error"


class LLMBadResponse(LLMError):
    """The server answered 200 with something that is not a usable chat completion."""

    problem: Problem = "bad_response"


def redact(text: str, secret: str | None) -> str:
    """Replace every occurrence of ``secret`` in ``text`` with ``***``.

    >>> redact("Incorrect API key provided: sk-abc123.", "sk-abc123")
    'Incorrect API key provided: ***.'
    >>> redact("no secret here", None)
    'no secret here'
    """
    return text.replace(secret, "***") if secret else text


def _display_url(url: str) -> str:
    """The URL without any ``user:password@`` part.

    >>> _display_url("https://bob:pw@example.org/v1")
    'https://example.org/v1'
    """
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


@dataclass(frozen=True)
class ConnectionStatus:
    """Result of :meth:`LLMClient.check_connection`; ``detail`` is safe to show users."""

    ok: bool
    problem: Problem | None
    detail: str


# -- client ----------------------------------------------------------------------------
class LLMClient:
    """Chat completions against ``settings.base_url`` with retries and an optional cache.

    Args:
        settings: where and how to call.
        cache: consulted before each call, filled after each success.
        sleep: used between retries (inject a fake in tests).
        backoff_base_s: first retry delay; doubled each retry, capped at ``backoff_max_s``.
            A numeric ``Retry-After`` header on 429/503 replaces it (still capped).
    """

    def __init__(
        self,
        settings: LLMSettings,
        cache: ResponseCache | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 20.0,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self._sleep = sleep
        self._backoff_base_s = backoff_base_s
        self._backoff_max_s = backoff_max_s
        self._url = _display_url(settings.base_url)
        self._openai: openai.OpenAI | None = None
        if settings.configured:
            self._openai = openai.OpenAI(
                base_url=settings.base_url,
                api_key=settings.key_to_send,  # always explicit: never falls back to the env
                timeout=settings.timeout_s,
                max_retries=0,
            )

    def __repr__(self) -> str:
        return f"LLMClient({self.settings!r})"

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the underlying HTTP connection pool."""
        if self._openai is not None:
            self._openai.close()

    # -- public API ----------------------------------------------------------------------
    def complete(
        self, messages: list[dict[str, Any]], n: int = 1, temperature: float | None = None
    ) -> list[str]:
        """Return ``n`` reply texts for ``messages`` (chat format: role + content).

        If the server returns fewer choices than asked (it ignores ``n``), further calls
        ask for the rest; each call yields at least one text, so at most ``n`` calls happen.

        Raises:
            LLMError: a subclass telling what went wrong (never containing the key).
            ValueError: ``n`` outside 1..50 or empty ``messages``.
        """
        if not 1 <= n <= MAX_N:
            raise ValueError(f"n must be in 1..{MAX_N}, got {n}")
        if not messages:
            raise ValueError("messages must not be empty")
        temp = self.settings.temperature if temperature is None else temperature
        key = None
        if self.cache is not None:
            key = request_key(
                model=self.settings.model,
                base_url=self.settings.base_url,
                messages=messages,
                n=n,
                temperature=temp,
            )
            hit = self.cache.get(key)
            if hit is not None and len(hit) == n:
                return hit
        texts: list[str] = []
        for _ in range(n):
            texts += self._chat(messages, n - len(texts), temp)
            if len(texts) >= n:
                break
            log.info(
                "%s returned fewer choices than asked; requesting %d more",
                self._url,
                n - len(texts),
            )
        texts = texts[:n]
        if self.cache is not None and key is not None:
            self.cache.put(key, texts)
        return texts

    def check_connection(self) -> ConnectionStatus:
        """Diagnose the setup with at most two small requests, never raising.

        GET /models tells reachability, auth and whether the model is listed; only if the
        server has no /models (404) is a one-token completion tried instead.
        """
        if self._openai is None:
            return ConnectionStatus(False, "not_configured", self._not_configured().args[0])
        timeout = min(self.settings.timeout_s, 10.0)
        try:
            raw = self._openai.models.with_raw_response.list(timeout=timeout)
        except openai.APIError as err:
            if not (isinstance(err, openai.APIStatusError) and err.status_code == 404):
                return self._status(self._translate(err, "GET /models"))
        else:
            return self._status_from_listing(raw.content)
        try:
            self._chat(
                [{"role": "user", "content": "ping"}],
                1,
                0.0,
                retries=False,
                max_tokens=1,
                timeout=timeout,
            )
        except LLMError as err:
            return self._status(err)
        return ConnectionStatus(
            True, None, f"{self._url} answered a test completion with model {self.settings.model!r}"
        )

    # -- internals -----------------------------------------------------------------------
    def _chat(
        self,
        messages: list[dict[str, Any]],
        n: int,
        temperature: float,
        *,
        retries: bool = True,
        **extra: Any,
    ) -> list[str]:
        client = self._require_client()

        def call() -> Any:
            return client.chat.completions.with_raw_response.create(
                model=self.settings.model,
                messages=cast(Any, messages),
                n=n,
                temperature=temperature,
                **extra,
            )

        raw = self._with_retries(call, "chat completion") if retries else self._once(call)
        return self._parse_choices(raw.content)

    def _require_client(self) -> openai.OpenAI:
        if self._openai is None:
            raise self._not_configured()
        return self._openai

    def _not_configured(self) -> LLMNotConfigured:
        s = self.settings
        missing = [
            name
            for name, ok in (
                ("base URL", s.base_url),
                ("model", s.model),
                ("API key", s.api_key or not s.needs_key),
            )
            if not ok
        ]
        return LLMNotConfigured(
            f"LLM not configured: missing {', '.join(missing)}", base_url=self._url
        )

    def _once(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except openai.APIError as err:
            raise self._translate(err, "chat completion") from None

    def _with_retries(self, call: Callable[[], T], what: str) -> T:
        attempts = self.settings.max_retries + 1
        for attempt in range(attempts):
            try:
                return call()
            except openai.APIError as err:
                if attempt == attempts - 1 or not _retryable(err):
                    raise self._translate(err, what) from None
                delay = self._delay(attempt, err)
                log.warning(
                    "%s: %s failed (%s); retry %d/%d in %.2fs",
                    self._url,
                    what,
                    self._reason(err),
                    attempt + 1,
                    attempts - 1,
                    delay,
                )
                self._sleep(delay)
        raise AssertionError("unreachable: the loop returns or raises")

    def _delay(self, attempt: int, err: openai.APIError) -> float:
        delay = self._backoff_base_s * 2**attempt
        if isinstance(err, openai.APIStatusError):
            header = err.response.headers.get("retry-after", "").strip()
            if re.fullmatch(r"\d+(\.\d+)?", header):  # seconds; HTTP-date form is ignored
                delay = float(header)
        return max(0.0, min(delay, self._backoff_max_s))

    def _reason(self, err: openai.APIError) -> str:
        """A short, key-free description of an openai error."""
        if isinstance(err, openai.APITimeoutError):
            return f"no reply within {self.settings.timeout_s:g}s"
        if isinstance(err, openai.APIConnectionError):
            cause = err.__cause__
            text = f"{type(cause).__name__}: {cause}" if cause else err.message
            return f"connection failed ({self._clean(text)})"
        if isinstance(err, openai.APIStatusError):
            said = re.sub(r"^Error code: \d+(?: - )?", "", err.message).strip()
            return f"HTTP {err.status_code}" + (f": {self._clean(said)}" if said else "")
        return self._clean(f"{type(err).__name__}: {err.message}")

    def _clean(self, text: str) -> str:
        text = redact(text, self.settings.api_key)
        text = redact(text, self.settings.key_to_send)
        return text if len(text) <= _SNIPPET else text[:_SNIPPET] + "..."

    def _translate(self, err: openai.APIError, what: str) -> LLMError:
        url, model, reason = self._url, self.settings.model, self._reason(err)
        if isinstance(err, openai.APIConnectionError):
            return LLMUnreachable(f"cannot reach {url} ({what}): {reason}", base_url=url)
        if not isinstance(err, openai.APIStatusError):
            return LLMBadResponse(f"{url} sent an invalid reply to {what}: {reason}", base_url=url)
        status = err.status_code
        if status in (401, 403):
            key = "the API key was refused" if self.settings.api_key else "no API key is set"
            return LLMAuthError(f"{url}: {key} ({what}, {reason})", base_url=url, status=status)
        if status == 404:
            return LLMModelNotFound(
                f"{url}: {what} answered 404 — model {model!r} is unknown there, or the base "
                f"URL is wrong (does it end in /v1?) ({reason})",
                base_url=url,
                status=status,
            )
        if status == 429:
            return LLMRateLimited(
                f"{url}: rate limited or out of quota ({what}, {reason})",
                base_url=url,
                status=status,
            )
        return LLMHTTPError(f"{url}: {what} failed with {reason}", base_url=url, status=status)

    def _bad(self, problem: str) -> LLMBadResponse:
        return LLMBadResponse(
            f"{self._url}: unusable chat completion: {self._clean(problem)}", base_url=self._url
        )

    def _parse_choices(self, body: bytes) -> list[str]:
        try:
            data = json.loads(body)
        except ValueError:
            snippet = body[:80].decode("utf-8", "replace")
            raise self._bad(f"reply is not JSON (starts with {snippet!r})") from None
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices:
            said = data.get("error") if isinstance(data, dict) else None
            hint = f"; server said {said!r}" if said else ""
            raise self._bad(f"reply has no 'choices' list{hint}")
        texts = []
        for i, choice in enumerate(choices):
            message = choice.get("message") if isinstance(choice, dict) else None
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, str):
                raise self._bad(f"choice {i} has no text content (got {type(content).__name__})")
            texts.append(content)
        return texts

    def _status(self, err: LLMError) -> ConnectionStatus:
        return ConnectionStatus(False, err.problem, str(err))

    def _status_from_listing(self, body: bytes) -> ConnectionStatus:
        try:
            data = json.loads(body)
            ids = [str(m["id"]) for m in data["data"]]
        except (ValueError, KeyError, TypeError):
            return self._status(self._bad("GET /models reply is not a model list"))
        model = self.settings.model
        if model in ids or f"{model}:latest" in ids:
            return ConnectionStatus(True, None, f"{self._url} is reachable and lists {model!r}")
        listed = ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "") if ids else "none"
        detail = f"{self._url} does not list model {model!r} (it lists: {self._clean(listed)})"
        return ConnectionStatus(False, "unknown_model", detail)


def _retryable(err: openai.APIError) -> bool:
    """Timeouts, connection errors, 429 and 5xx are worth another try; 4xx are not."""
    if isinstance(err, openai.APIConnectionError):  # includes APITimeoutError
        return True
    return isinstance(err, openai.APIStatusError) and (
        err.status_code == 429 or err.status_code >= 500
    )
