"""A tiny OpenAI-compatible HTTP server for tests (no network beyond 127.0.0.1).

The real ``openai`` package talks to it, so tests exercise the genuine client code path
(request building, status handling, timeouts) instead of a mock of it.

    >>> with FakeOpenAIServer(scripted(FakeReply.error(429), FakeReply.ok("a", "b"))) as srv:
    ...     srv.base_url.startswith("http://127.0.0.1:")
    True

Endpoints:
    POST /v1/chat/completions  answered by ``responder(request_json, call_index) -> FakeReply``
    GET  /v1/models            answered from ``models`` (a list of ids, or a FakeReply)

Every request (including /models) is recorded in ``srv.requests`` as a ``RecordedRequest``,
so tests can assert on headers (e.g. that ``Authorization`` carried the key) and bodies.
Delays wait on an event that ``close()`` sets, so a slow reply never outlives the server.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "FakeOpenAIServer",
    "FakeReply",
    "RecordedRequest",
    "Responder",
    "chat_completion",
    "echo_responder",
    "scripted",
]

CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"


@dataclass(frozen=True)
class FakeReply:
    """What the fake server answers to one request.

    Attributes:
        status: HTTP status code.
        texts: choice contents for a 200 reply; ``None`` means "generate one per requested n"
            (``"sample <call>.<k>"``). An entry may be ``None`` to send ``"content": null``.
        ignore_n: when generating, always send exactly one choice (servers that ignore ``n``).
        body: raw body override (str/bytes sent verbatim, anything else JSON-encoded);
            use it for garbage replies and custom error payloads.
        delay_s: seconds to wait before answering (to trigger client timeouts).
        drip_s: when > 0, the body is sent one byte at a time, ``drip_s`` seconds apart
            (a slow-drip server: every read gets a byte, so per-read timeouts never fire).
        headers: extra response headers, e.g. ``{"Retry-After": "0"}``.
        content_type: the ``Content-Type`` header.
    """

    status: int = 200
    texts: Sequence[str | None] | None = None
    ignore_n: bool = False
    body: Any = None
    delay_s: float = 0.0
    drip_s: float = 0.0
    headers: Mapping[str, str] = field(default_factory=dict)
    content_type: str = "application/json"

    @classmethod
    def ok(cls, *texts: str | None, delay_s: float = 0.0) -> FakeReply:
        """A 200 reply with exactly these choice texts (or generated ones if none given)."""
        return cls(texts=texts or None, delay_s=delay_s)

    @classmethod
    def error(cls, status: int, message: str = "fake error", **kw: Any) -> FakeReply:
        """An OpenAI-shaped error reply: ``{"error": {"message": ..., "code": status}}``."""
        return cls(status=status, body={"error": {"message": message, "code": status}}, **kw)

    @classmethod
    def garbage(cls, body: str | bytes = "<html>oops</html>", **kw: Any) -> FakeReply:
        """A 200 reply whose body is sent verbatim (by default not JSON at all)."""
        return cls(body=body, **kw)

    @classmethod
    def slow(cls, delay_s: float, *texts: str) -> FakeReply:
        """A 200 reply sent only after ``delay_s`` seconds."""
        return cls(texts=texts or None, delay_s=delay_s)


@dataclass(frozen=True)
class RecordedRequest:
    """One request the fake server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    json: Any

    @property
    def authorization(self) -> str | None:
        """The ``Authorization`` header, if any (header names are lower-cased)."""
        return self.headers.get("authorization")


Responder = Callable[[dict, int], FakeReply]


def echo_responder(request_json: dict, call_index: int) -> FakeReply:
    """Default responder: a normal reply with ``n`` generated choices."""
    return FakeReply()


def scripted(*replies: FakeReply) -> Responder:
    """A responder that plays ``replies`` in order, repeating the last one forever.

    >>> r = scripted(FakeReply.error(429), FakeReply.ok("x"))
    >>> [r({}, i).status for i in range(3)]
    [429, 200, 200]
    """
    if not replies:
        raise ValueError("scripted() needs at least one FakeReply")

    def responder(request_json: dict, call_index: int) -> FakeReply:
        return replies[min(call_index, len(replies) - 1)]

    return responder


def chat_completion(texts: Sequence[str | None], model: str, call_index: int = 0) -> dict:
    """An OpenAI chat.completion JSON object with one choice per text."""
    return {
        "id": f"chatcmpl-fake-{call_index}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": k,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
            for k, text in enumerate(texts)
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class FakeOpenAIServer:
    """OpenAI-compatible server on 127.0.0.1 with a random free port, run in a thread.

    Args:
        responder: ``(request_json, call_index) -> FakeReply`` for chat completions;
            ``call_index`` counts chat-completion requests from 0.
        models: ids listed by GET /v1/models, or a FakeReply to answer it with
            (e.g. ``FakeReply.error(404)`` for servers without that endpoint).
        require_key: if set, any request whose ``Authorization`` is not ``Bearer <key>``
            gets a 401 whose message echoes the bad key (as careless servers do).
    """

    def __init__(
        self,
        responder: Responder = echo_responder,
        *,
        models: Sequence[str] | FakeReply = ("fake-model",),
        require_key: str | None = None,
    ) -> None:
        self.responder = responder
        self.models = models
        self.require_key = require_key
        self.requests: list[RecordedRequest] = []
        self.handler_errors: list[str] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._chat_calls = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> FakeOpenAIServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Bind 127.0.0.1:0 and serve in a daemon thread."""
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stop serving; pending delays end at once."""
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``, to use as the client's base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- inspection --------------------------------------------------------------------
    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """Recorded POSTs to /v1/chat/completions, in arrival order."""
        return [r for r in self.requests if r.path == CHAT_PATH]

    @property
    def chat_calls(self) -> int:
        """How many chat-completion requests arrived."""
        return len(self.chat_requests)

    # -- request handling (called from handler threads) --------------------------------
    def _record(self, request: RecordedRequest) -> int:
        with self._lock:
            self.requests.append(request)
            if request.path != CHAT_PATH:
                return -1
            self._chat_calls += 1
            return self._chat_calls - 1

    def _reply_for(self, request: RecordedRequest, call_index: int) -> tuple[FakeReply, Any]:
        """Choose the reply and the JSON-able payload it stands for."""
        if self.require_key is not None and request.authorization != f"Bearer {self.require_key}":
            shown = request.authorization or "<none>"
            return FakeReply.error(401, f"Incorrect API key provided: {shown}"), None
        if request.path == MODELS_PATH and request.method == "GET":
            if isinstance(self.models, FakeReply):
                return self.models, None
            listing = [
                {"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models
            ]
            return FakeReply(), {"object": "list", "data": listing}
        if request.path == CHAT_PATH and request.method == "POST":
            payload = request.json if isinstance(request.json, dict) else {}
            reply = self.responder(payload, call_index)
            texts = reply.texts
            if texts is None:
                count = 1 if reply.ignore_n else int(payload.get("n") or 1)
                texts = [f"sample {call_index}.{k}" for k in range(count)]
            model = str(payload.get("model", "fake-model"))
            return reply, chat_completion(texts, model, call_index)
        return FakeReply.error(404, f"no route {request.method} {request.path}"), None

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._closing.wait(seconds)


def _encode(reply: FakeReply, payload: Any) -> bytes:
    body = reply.body if reply.body is not None else payload
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return json.dumps(body).encode()


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes: avoid 40 ms stalls

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            """Silence the default stderr access log."""

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            request = RecordedRequest(
                method=self.command,
                path=self.path.split("?", 1)[0],
                headers={k.lower(): v for k, v in self.headers.items()},
                json=body,
            )
            call_index = server._record(request)
            reply, payload = server._reply_for(request, call_index)
            server._wait(reply.delay_s)
            data = _encode(reply, payload)
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if reply.drip_s > 0:
                    for i in range(len(data)):
                        if server._closing.is_set():
                            break
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                        server._wait(reply.drip_s)
                else:
                    self.wfile.write(data)
            except OSError as err:  # the client gave up (timeout) before we answered
                server.handler_errors.append(type(err).__name__)
                self.close_connection = True

        do_GET = _handle
        do_POST = _handle

    return Handler
