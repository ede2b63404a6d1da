"""``python -m trustuqa_core``: see :mod:`trustuqa_core.cli`."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
