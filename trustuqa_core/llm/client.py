"""Chat completions from any OpenAI-compatible server, with retries, caching and no key leaks.

The real ``openai`` package does the HTTP; its own retries are switched off so that this
module decides (bounded exponential backoff, injectable ``sleep``). Every error raised to
callers is an :class:`LLMError` whose message names the base URL and the problem and has
the API key scrubbed out (also from text the server sent back). Redirects are never followed
(the key would go along to wherever the server points).

Every HTTP request spends from a :class:`CallBudget`: a wall-clock deadline and a number of
calls, retries included. :func:`llm_budget` opens one for a whole question (``answer()`` does);
without one, each public call opens its own from the settings. A request that is still
running at the deadline (a server that sleeps, or drips its reply a byte at a time) is
abandoned and its connection closed, so no question waits longer than its budget.

    >>> issubclass(LLMRateLimited, LLMError), LLMAuthError.problem
    (True, 'auth')
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from trustuqa_core.errors import TrustUQAError
from trustuqa_core.llm.cache import ResponseCache, request_key
from trustuqa_core.llm.settings import LLMSettings, display_url

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
    "CallBudget",
    "ConnectionStatus",
    "LLMAuthError",
    "LLMBadResponse",
    "LLMBudgetExceeded",
    "LLMClient",
    "LLMError",
    "LLMHTTPError",
    "LLMModelNotFound",
    "LLMNotConfigured",
    "LLMRateLimited",
    "LLMUnreachable",
    "Problem",
    "llm_budget",
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
    "budget",
]
MAX_N = 50
_CHECK_SECONDS = 15.0  # a connection test never waits longer than this
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


class LLMBudgetExceeded(LLMError):
    """The question's LLM budget (wall-clock seconds or number of calls) is used up."""

    problem: Problem = "budget"


@dataclass
class CallBudget:
    """What one question may still spend on LLM requests: time until ``deadline`` and calls.

    >>> b = CallBudget(seconds=10.0, calls=1)
    >>> b.take("http://x/v1") > 0
    True
    >>> b.take("http://x/v1")
    Traceback (most recent call last):
    ...
    trustuqa_core.llm.client.LLMBudgetExceeded: http://x/v1: the limit of 1 LLM call(s) per \
question is reached (TRUSTUQA_LIMIT_LLM_CALLS_PER_QUESTION or the question_calls setting)
    """

    seconds: float
    calls: int
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    used: int = 0

    def __post_init__(self) -> None:
        self.deadline = self.clock() + self.seconds

    def remaining(self) -> float:
        """Seconds left (may be negative)."""
        return self.deadline - self.clock()

    def take(self, url: str) -> float:
        """Spend one call; the seconds left. Raises :class:`LLMBudgetExceeded` when none is."""
        if self.used >= self.calls:
            raise LLMBudgetExceeded(
                f"{url}: the limit of {self.calls} LLM call(s) per question is reached "
                "(TRUSTUQA_LIMIT_LLM_CALLS_PER_QUESTION or the question_calls setting)",
                base_url=url)
        left = self.remaining()
        if left <= 0:
            raise self.timed_out(url)
        self.used += 1
        return left

    def timed_out(self, url: str) -> LLMBudgetExceeded:
        """The error for a spent time budget."""
        return LLMBudgetExceeded(
            f"{url}: the LLM time budget of {self.seconds:g} s per question is used up "
            "(TRUSTUQA_LIMIT_LLM_SECONDS_PER_QUESTION or the question_seconds setting)",
            base_url=url)


_BUDGET: ContextVar[CallBudget | None] = ContextVar("trustuqa_llm_budget", default=None)


@contextmanager
def llm_budget(seconds: float, calls: int) -> Iterator[CallBudget]:
    """Make every LLM request inside the block (this thread / context) spend from one budget.

    An enclosing budget wins: nested blocks share it.

    >>> with llm_budget(5.0, 2) as outer, llm_budget(60.0, 9) as inner:
    ...     inner is outer
    True
    """
    active = _BUDGET.get()
    if active is not None:
        yield active
        return
    budget = CallBudget(seconds, calls)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


def redact(text: str, secret: str | None) -> str:
    """Replace every occurrence of ``secret`` in ``text`` with ``***``.

    >>> redact("Incorrect API key provided: sk-abc123.", "sk-abc123")
    'Incorrect API key provided: ***.'
    >>> redact("no secret here", None)
    'no secret here'
    """
    return text.replace(secret, "***") if secret else text


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
        self._url = display_url(settings.base_url)
        self._openai: openai.OpenAI | None = self._connect() if settings.configured else None

    def _connect(self) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.settings.base_url,
            api_key=self.settings.key_to_send,  # always explicit: never falls back to the env
            timeout=self.settings.timeout_s,
            max_retries=0,
            http_client=openai.DefaultHttpxClient(follow_redirects=False),
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
        s = self.settings
        with llm_budget(s.question_seconds, s.question_calls):
            for _ in range(n):
                try:
                    texts += self._chat(messages, n - len(texts), temp)
                except LLMBudgetExceeded as err:
                    if not texts:
                        raise
                    log.warning("%s; keeping the %d sample(s) received", err, len(texts))
                    return texts  # fewer than asked: not cached
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
        with llm_budget(min(self.settings.question_seconds, _CHECK_SECONDS), 2):
            return self._check()

    def _check(self) -> ConnectionStatus:
        try:
            body = self._send(lambda c, t: c.models.with_raw_response.list(timeout=t).content,
                              cap=10.0)
        except LLMBudgetExceeded as err:
            return self._status(err)
        except openai.APIError as err:
            if not (isinstance(err, openai.APIStatusError) and err.status_code == 404):
                return self._status(self._translate(err, "GET /models"))
        else:
            return self._status_from_listing(body)
        try:
            self._chat(
                [{"role": "user", "content": "ping"}],
                1,
                0.0,
                retries=False,
                max_tokens=1,
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
        self._require_client()

        if self.settings.extra_body:  # e.g. Ollama's options.num_ctx (settings presets)
            extra.setdefault("extra_body", self.settings.extra_body)

        def call(client: openai.OpenAI, timeout: float) -> bytes:
            return client.chat.completions.with_raw_response.create(
                model=self.settings.model,
                messages=cast(Any, messages),
                n=n,
                temperature=temperature,
                timeout=timeout,
                **extra,
            ).content

        body = self._with_retries(call, "chat completion") if retries else self._once(call)
        return self._parse_choices(body)

    def _send(self, call: Callable[[openai.OpenAI, float], T], cap: float | None = None) -> T:
        """One HTTP request, spent from the active budget and abandoned at its deadline.

        The request runs in a helper thread so that a server dripping its reply cannot hold
        the caller past the deadline; an abandoned request's connections are closed (which
        ends the helper thread) and a fresh connection pool is used afterwards.
        """
        budget = _BUDGET.get()
        if budget is None:  # a private call outside complete()/check_connection()
            with llm_budget(self.settings.question_seconds, self.settings.question_calls):
                return self._send(call, cap)
        left = budget.take(self._url)
        client = self._require_client()
        timeout = min(self.settings.timeout_s, left, cap or left)
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["value"] = call(client, timeout)
            except BaseException as err:  # noqa: BLE001 - re-raised in the caller below
                box["error"] = err
            finally:
                done.set()

        threading.Thread(target=work, name="trustuqa-llm-request", daemon=True).start()
        if not done.wait(left):
            self._abandon(client)
            raise budget.timed_out(self._url)
        if "error" in box:
            raise box["error"]
        return cast(T, box["value"])

    def _abandon(self, client: openai.OpenAI) -> None:
        """Close a pool whose request overran the budget (in the background) and reconnect."""
        if self._openai is client:
            self._openai = self._connect()
        threading.Thread(target=client.close, name="trustuqa-llm-close", daemon=True).start()

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

    def _once(self, call: Callable[[openai.OpenAI, float], T]) -> T:
        try:
            return self._send(call)
        except openai.APIError as err:
            raise self._translate(err, "chat completion") from None

    def _with_retries(self, call: Callable[[openai.OpenAI, float], T], what: str) -> T:
        attempts = self.settings.max_retries + 1
        for attempt in range(attempts):
            try:
                return self._send(call)
            except openai.APIError as err:
                if attempt == attempts - 1 or not _retryable(err):
                    raise self._translate(err, what) from None
                delay = self._delay(attempt, err)
                budget = _BUDGET.get()
                if budget is not None and delay >= budget.remaining():
                    raise budget.timed_out(self._url) from None
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
        if 300 <= status < 400:
            return LLMHTTPError(f"{url}: {what} answered with a redirect (HTTP {status}); "
                                "redirects are not followed, set the final base URL instead",
                                base_url=url, status=status)
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
