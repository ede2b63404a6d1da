"""Semantic mapping of query literals onto graph nodes."""

from __future__ import annotations

from ..lexical_pool import LexicalPool
from .dense import EmbeddingIndex, Encoder, HashingEncoder, MiniLMEncoder, default_encoder
from .mapper import TIME_KEYS, MappedProgram, Mapper, Mapping, override_key
from .stages import Candidate

__all__ = [
    "Mapper",
    "Mapping",
    "Candidate",
    "MappedProgram",
    "override_key",
    "TIME_KEYS",
    "EmbeddingIndex",
    "Encoder",
    "HashingEncoder",
    "MiniLMEncoder",
    "default_encoder",
    "LexicalPool",
]
