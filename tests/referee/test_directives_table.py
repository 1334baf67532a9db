"""One table of mail commands: '#help', every seat's opening mail, the man page of
'referee inbox' and the README's list are all made from it, and it names every command the
referee reads."""

from __future__ import annotations

import re
from pathlib import Path

from gametool.referee.mail import directives

ROOT = Path(__file__).resolve().parents[2]


def words(usage: str) -> str:
    return usage.split()[0].lstrip("#")


def test_the_table_names_every_command_the_referee_reads_and_no_other() -> None:
    assert {words(item.usage) for item in directives.TABLE} == set(directives.COMMANDS)


def test_help_and_the_opening_mail_are_made_from_the_table() -> None:
    for item in directives.TABLE:
        assert f"  {item.usage}" in directives.HELP
        if item.brief:
            assert f"'{item.usage}' ({item.brief})" in " ".join(directives.OPENING.split())
    assert not re.search(r"^#", directives.OPENING, re.M)  # sent back, it asks nothing
    assert str(directives.MAX_SAY) in directives.HELP and "allowance" in directives.HELP


def test_the_readme_list_is_the_table() -> None:
    text = (ROOT / "README.md").read_text()
    block = text.split("<!-- mail commands: begin -->\n```text\n", 1)[1].split("\n```", 1)[0]
    assert block == directives.listing()


def test_the_man_page_of_inbox_lists_the_table() -> None:
    page = (ROOT / "man" / "gametool-referee-inbox.1").read_text()
    for item in directives.TABLE:
        assert item.usage.replace("-", "\\-") in page or item.usage in page, item.usage
