"""The manual pages in man/ are generated from the Click help and the games' own text."""

from __future__ import annotations

from pathlib import Path

from gametool import games
from gametool.cli import cli
from gametool.manpages import pages

MAN = Path(__file__).resolve().parent.parent / "man"


def test_every_command_and_every_game_has_a_page() -> None:
    names = set(pages())
    assert "gametool.1" in names
    assert {f"gametool-{c}.1" for c in cli.commands} <= names
    assert {f"gametool-{g}.6" for g in games.GAMES} <= names


def test_the_pages_on_disk_are_up_to_date() -> None:
    stale = [name for name, text in pages().items()
             if not (MAN / name).exists() or (MAN / name).read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; run: python -m gametool.manpages"
    extra = {p.name for p in MAN.iterdir()} - set(pages())
    assert not extra, f"pages of nothing: {sorted(extra)}"


def test_a_game_page_holds_rules_notation_and_options() -> None:
    text = pages()["gametool-belemmer.6"]
    for section in (".SH RULES", ".SH NOTATION", ".SH OPTIONS"):
        assert section in text


def test_every_subcommand_of_a_group_has_a_page_with_examples() -> None:
    import click

    written = pages()
    for name, command in cli.commands.items():
        if isinstance(command, click.Group):
            for sub in command.commands:
                page = written[f"gametool-{name}-{sub}.1"]
                assert f"gametool {name} {sub}" in page
                assert ".SH EXAMPLES" in page, f"{name} {sub} has no examples"
            assert ".SH COMMANDS" in written[f"gametool-{name}.1"]
