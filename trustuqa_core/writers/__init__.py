"""Query writers: an LLM writer and an offline writer (no network), behind one protocol.

>>> from trustuqa_core.writers import OfflineWriter
>>> OfflineWriter().name
'offline'
"""

from __future__ import annotations

from .base import Writer, WriteRequest, Written
from .llm import LLMWriter, demo_schema
from .offline import OfflineWriter
from .table_program import plan_program
from .tables import TablePlan, link_table
from .templates import Template, make_template, rebind

__all__ = ["Writer", "WriteRequest", "Written", "LLMWriter", "OfflineWriter", "demo_schema",
           "TablePlan", "link_table", "plan_program", "Template", "make_template", "rebind"]
