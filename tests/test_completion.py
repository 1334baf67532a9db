"""Shell completion: the scripts, and what Click completes for game ids, files, seats and the
legal actions of a record."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from gametool.cli import cli

RUNNER = CliRunner()


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """(type, value) of each completion Click offers after ``gametool ARGS INCOMPLETE``."""
    items = ShellComplete(cli, {}, "gametool", "_GAMETOOL_COMPLETE").get_completions(
        args, incomplete)
    return [(item.type, item.value) for item in items]


def values(args: list[str], incomplete: str) -> list[str]:
    return [value for kind, value in complete(args, incomplete) if kind == "plain"]


def record(tmp_path: Path, *args: str, name: str = "g.gtn") -> Path:
    path = tmp_path / name
    assert RUNNER.invoke(cli, ["start", *args, "-o", str(path)]).exit_code == 0
    return path


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_of_each_shell(shell: str) -> None:
    result = RUNNER.invoke(cli, ["completion", shell])
    assert result.exit_code == 0
    assert "_GAMETOOL_COMPLETE" in result.output and "gametool" in result.output


def test_commands_and_options_complete() -> None:
    assert {"start", "move", "moves", "completion", "play", "undo"} <= set(values([], ""))
    assert "--players" in values(["start", "colors"], "--pl")


def test_game_ids_and_aliases_complete() -> None:
    assert values(["start"], "ch") == ["chess"]
    assert set(values(["rules"], "col")) >= {"colors", "colors-8x8", "colours"}
    assert "mahjong" in values(["rules"], "mah")
    assert "western-mahjong" in values(["selfplay"], "west")


def test_file_arguments_fall_back_to_file_names() -> None:
    for args in (["show"], ["move"], ["validate"], ["export"], ["start", "colors", "-o"],
                 ["undo"], ["replay"], ["moves"]):
        assert ("file", "ga") in complete(args, "ga"), args


def test_seats_of_a_record_complete_after_as(tmp_path: Path) -> None:
    path = record(tmp_path, "chess")
    assert values(["show", str(path), "--as"], "") == ["white", "black"]
    assert values(["moves", str(path), "--as"], "b") == ["black"]


def test_legal_actions_of_the_record_complete_after_move(tmp_path: Path) -> None:
    path = record(tmp_path, "chess")
    first = values(["move", str(path)], "")
    assert len(first) == 20 and "Nf3" in first and "e4" in first
    assert sorted(values(["move", str(path)], "N")) == ["Na3", "Nc3", "Nf3", "Nh3"]
    # after a move, the next seat's actions; with --as, only when that seat is to move
    RUNNER.invoke(cli, ["move", str(path), "e4"])
    assert "e5" in values(["move", str(path)], "e")
    assert values(["move", str(path), "--as", "white"], "") == []
    assert "e5" in values(["move", str(path), "--as", "black"], "e")


def bash_completes(line: str, cwd: Path) -> list[str]:
    """What bash itself puts in COMPREPLY for ``line`` (Tab at its end), with the script of
    'gametool completion bash' loaded: the words as bash would insert them."""
    bindir = Path(sys.executable).parent
    # as bash splits the line into COMP_WORDS: the quotes stay in the words
    words = re.findall(r"'[^']*'?|\S+", line) + ([""] if line.endswith(" ") else [])
    program = f"""
set -e
export PATH={shlex.quote(str(bindir))}:$PATH
eval "$(gametool completion bash)"
COMP_WORDS=({" ".join(shlex.quote(word) for word in words)})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
_gametool_completion gametool
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "-c", program], cwd=cwd, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_bash_inserts_an_action_with_a_blank_quoted_and_never_twice(tmp_path: Path) -> None:
    record(tmp_path, "belemmer", "--seed", "c1", name="b.gtn")
    offered = bash_completes("gametool move b.gtn pla", tmp_path)
    assert "'place a1'" in offered and len(offered) == 16
    # typed unquoted as two words: the second word is completed, 'place' is not repeated
    assert bash_completes("gametool move b.gtn place ", tmp_path)[:2] == ["a1", "b1"]
    assert bash_completes("gametool move b.gtn place a", tmp_path)[:2] == ["a1", "a2"]
    # quoted, the action is one word and completes whole
    assert "'place a1'" in bash_completes("gametool move b.gtn 'place a", tmp_path)
    # a race game's turn of two moves
    path = record(tmp_path, "tawula", "--seed", "c2", name="t.gtn")
    first = values(["move", str(path)], "")
    assert any(" " in action for action in first), first
    head = next(action for action in first if " " in action).split()[0]
    rest = bash_completes(f"gametool move t.gtn {head} ", tmp_path)
    assert rest and all(" " not in word and word != head for word in rest), rest


def test_bash_completion_through_the_environment_offers_files(tmp_path: Path) -> None:
    env = dict(os.environ, COMP_WORDS="gametool show ga", COMP_CWORD="2",
               _GAMETOOL_COMPLETE="bash_complete")
    done = subprocess.run([sys.executable, "-c", "from gametool.cli import main; main()"],
                          env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.stdout.splitlines() == ["file,ga"]
