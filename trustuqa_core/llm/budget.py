"""Context budgets: does a prompt fit the configured model's context window?

A local server with a small context (Ollama's default is 2,048 or 4,096 tokens, depending on
the version) silently drops the *start* of a long prompt: the instructions. So every prompt
gets a token estimate, and a warning is raised when it, plus room for the reply, exceeds the
model's context.

- :func:`estimate_tokens`: no tokenizer is loaded (the models differ and none ships here);
  the estimate is the larger of characters / 3.5 and words x 1.4, plus 4 tokens per chat
  message. On the bundled prompts it is within about 15% of BPE counts, and it errs high.
- :func:`context_window`: the preset's ``num_ctx`` for Ollama (sent as ``options.num_ctx``,
  see :mod:`.settings`), else a table of known model families, else None (unknown: no
  warning).

>>> msgs = [{"role": "user", "content": "word " * 1000}]
>>> estimate_tokens(msgs) > 1000
True
>>> context_warning(msgs, 1024) is not None, context_warning(msgs, 128_000)
(True, None)
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

__all__ = ["REPLY_TOKENS", "KNOWN_CONTEXTS", "estimate_tokens", "context_window",
           "context_warning"]

#: tokens kept free for the model's reply (a long query program)
REPLY_TOKENS = 512
#: model-name prefix (case-insensitive) -> context window in tokens
KNOWN_CONTEXTS: tuple[tuple[str, int], ...] = (
    ("gpt-4o", 128_000), ("gpt-4.1", 1_000_000), ("gpt-4-turbo", 128_000), ("gpt-4", 8_192),
    ("gpt-3.5", 16_385), ("o1", 128_000), ("o3", 200_000), ("o4", 200_000),
    ("qwen2.5", 32_768), ("qwen/qwen2.5", 32_768), ("llama3.1", 128_000),
    ("llama-3.1", 128_000), ("meta-llama/llama-3.1", 128_000), ("llama3.2", 128_000),
    ("mistral", 32_768), ("gemma2", 8_192), ("phi3", 4_096),
)
_WORD = re.compile(r"\S+")


def estimate_tokens(messages: Sequence[Mapping[str, str]] | str) -> int:
    """An upper-leaning estimate of a prompt's tokens (see the module docstring)."""
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    total = 0
    for m in messages:
        text = str(m.get("content", ""))
        total += 4 + max(math.ceil(len(text) / 3.5), math.ceil(len(_WORD.findall(text)) * 1.4))
    return total


def context_window(model: str, num_ctx: int | None = None) -> int | None:
    """The context window to check against: ``num_ctx`` when the server is told one (it then
    is the limit), else the model family's, else None.

    >>> context_window("llama3.1", 16384), context_window("gpt-4o-mini"), context_window("x")
    (16384, 128000, None)
    """
    if num_ctx:
        return num_ctx
    name = model.casefold()
    return next((size for prefix, size in KNOWN_CONTEXTS if name.startswith(prefix)), None)


def context_warning(messages: Sequence[Mapping[str, str]] | str, window: int | None,
                    model: str = "the model") -> str | None:
    """A warning when the prompt and :data:`REPLY_TOKENS` exceed ``window`` (else None)."""
    if not window:
        return None
    need = estimate_tokens(messages)
    if need + REPLY_TOKENS <= window:
        return None
    return (f"The prompt is about {need:,} tokens, more than {model}'s context of {window:,} "
            f"tokens leaves room for (with {REPLY_TOKENS} for the reply): the server may drop "
            "the start of the prompt, which holds the instructions. Use a model with a larger "
            "context (for Ollama, a larger num_ctx), fewer demonstrations (k), or less data.")
