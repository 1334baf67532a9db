"""Text and JSON presentation of sessions and games; tables through tabulate.

Nothing here knows a rule: it arranges what the game's ``view``, ``render``, ``scores`` and
``outcome`` return, for the seat the output is meant for.
"""

from __future__ import annotations

from typing import Any

from gametool.engine import CHANCE, Game
from gametool.record import Session
from gametool.tables import tabulate

TABLE_FORMAT = "simple"


def table(headers: list[str], rows: list[list[Any]]) -> str:
    return tabulate(rows, headers=headers, tablefmt=TABLE_FORMAT, disable_numparse=False)


def game_list_rows(classes: list[type[Game]]) -> tuple[list[str], list[list[Any]]]:
    headers = ["id", "name", "players", "chance", "hidden information", "status"]
    rows = []
    for cls in classes:
        info = cls.info()
        players = (str(info.min_players) if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        rows.append([info.id, info.name, players, info.chance, info.hidden, info.status])
    return headers, rows


def game_list_json(classes: list[type[Game]]) -> list[dict[str, Any]]:
    return [
        {
            "id": cls.id, "name": cls.name, "min_players": cls.min_players,
            "max_players": cls.max_players, "chance": cls.chance or None,
            "hidden": cls.hidden or None, "status": cls.status,
            "options": {o.name: {"default": o.default, "choices": list(o.choices or ())}
                        for o in cls.options},
        }
        for cls in classes
    ]


def rules_text(cls: type[Game]) -> str:
    info = cls.info()
    players = (str(info.min_players) if info.min_players == info.max_players
               else f"{info.min_players}-{info.max_players}")
    lines = [f"{cls.name} ({cls.id})", "",
             f"Players: {players}    Chance: {info.chance}    Hidden information: {info.hidden}"]
    if cls.status != "playable":
        lines.append(f"Status: {cls.status}")
    lines += ["", "Rules", "", cls.summary.strip(), "", "Notation", "", cls.notation.rstrip()]
    if cls.options:
        lines += ["", "Options", ""]
        lines += [f"  {opt.describe()}" + (f": {opt.help}" if opt.help else "")
                  for opt in cls.options]
    return "\n".join(lines) + "\n"


def _seat_of(session: Session, as_seat: str | None) -> int | None:
    """The seat index of ``as_seat``; the chance seat sees what a spectator sees (None)."""
    if as_seat is None:
        return None
    seat = session.seat_index(as_seat)
    return None if seat == CHANCE else seat


def _last_action(session: Session, ply: int, seat: int | None) -> str | None:
    """The action that led to ply ``ply``, as ``seat`` may read it (None: a spectator)."""
    if ply == 0:
        return None
    step = session.steps[ply - 1]
    before, after = session.states[ply - 1], session.states[ply]
    game = session.game
    text = game.mask_action(before, step.action, after, seat)
    note = game.describe_action(before, step.action) if text == step.text else None
    out = f"{session.seat_name(step.seat)}: {text}"
    return f"{out}  ({note})" if note else out


def show_data(session: Session, ply: int | None = None,
              as_seat: str | None = None) -> dict[str, Any]:
    """The JSON of ``show``: the position after ``ply`` plies as ``as_seat`` may see it."""
    ply = session.ply if ply is None else ply
    state = session.states[ply]
    game = session.game
    seat = _seat_of(session, as_seat)
    outcome = session.outcome_at(ply)
    to_move = session.to_move_at(ply)
    data: dict[str, Any] = {
        "game": game.id,
        "players": list(session.names),
        "options": dict(game.non_default_options()),
        "ply": ply,
        "to_move": session.seat_name(to_move),
        "over": outcome is not None,
        "result": outcome.to_json(session.names) if outcome else None,
        "last": _last_action(session, ply, seat),
    }
    if as_seat is not None:
        data["as"] = session.seat_name(seat) if seat is not None else "chance"
    scores = game.scores(state)
    if scores is not None:
        data["scores"] = {name: scores[i] for i, name in enumerate(session.names)}
    data["position"] = game.view(state, seat)
    return data


def show_text(session: Session, ply: int | None = None, as_seat: str | None = None) -> str:
    """The position drawn for a person: header, board, score table, result."""
    data = show_data(session, ply, as_seat)
    ply = data["ply"]
    state = session.states[ply]
    game = session.game
    seat = _seat_of(session, as_seat)
    lines = [f"{game.name} ({game.id})  players: {', '.join(session.names)}"]
    if data["options"]:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in data["options"].items()))
    status = f"ply {ply}"
    if data["to_move"] is not None:
        status += f", {data['to_move']} to move"
    if as_seat is not None:
        status += f"  (as {data['as']})"
    lines.append(status)
    if data["last"]:
        lines.append(f"last: {data['last']}")
    lines += ["", game.render(state, seat, session.names).rstrip("\n")]
    detail = game.score_table(state, seat)
    if detail is not None:
        lines += ["", table(*detail)]
    elif data.get("scores") is not None:
        lines += ["", table(["seat", "score"], [[k, v] for k, v in data["scores"].items()])]
    if data["result"] is not None:
        result = data["result"]
        lines += ["", f"result: {result['tag']} ({result['termination']})"]
    return "\n".join(lines) + "\n"
