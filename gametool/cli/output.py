"""What the commands print: records as JSON, and the refusal of '-' where a folder is written.

``--json`` on a command that writes records (``start``, ``filter``, ``import``) gives each
record as ``export --json`` does: ``{"tags": {...}, "plies": [{"ply", "seat", "action"}]}``,
one object for one record and a list for a stream of them.
"""

from __future__ import annotations

import json
from typing import Any


def records_json(text: str, many: bool = True) -> str:
    """The records of ``text`` as JSON: a list of records (or, unless ``many``, the one)."""
    from gametool.records import read_text
    from gametool.views.render import record_json

    records = [record_json(record) for record in read_text(text, None)] if text.strip() else []
    data: Any = records if many else records[0]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
