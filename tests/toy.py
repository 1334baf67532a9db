"""A toy game for testing the record layer on its own: hidden deals, interleaved chance and
turns of several actions.

Each seat is dealt a secret number 1-6 (chance, seen only by its owner). A turn is one or two
actions ``take N`` (N = 1..3) followed by ``done``; after each ``done`` chance rolls a die that
is added to the pot. The game ends when the pot reaches 15; the seat whose secret is closest to
the pot modulo 7 wins (ties draw).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gametool.core.chance import SeedRng
from gametool.core.engine import CHANCE, RESIGN, Game, Outcome
from gametool.core.errors import GameOver, IllegalAction, MalformedAction


@dataclass(frozen=True)
class ToyState:
    secrets: tuple[int, ...]
    pot: int = 0
    seat: int = CHANCE
    takes: int = 0
    rolled: bool = True
    resigned: int | None = None


class Toy(Game[ToyState, Any]):
    id = "toy"
    name = "Toy"
    chance = "deal, die"
    hidden = "secrets"
    summary = "A toy game for tests."
    notation = "take N | done | deal N | roll N | resign"
    max_plies = 200

    def initial_state(self, nseats: int) -> ToyState:
        return ToyState(secrets=())

    def to_move(self, state: ToyState) -> int | None:
        if state.resigned is not None or state.pot >= 15:
            return None
        if len(state.secrets) < 2 or not state.rolled:
            return CHANCE
        return state.seat

    def legal_actions(self, state: ToyState) -> list[Any]:
        takes = [("take", n) for n in (1, 2, 3)] if state.takes < 2 else []
        return takes + ([("done",)] if state.takes else [])

    def chance_outcomes(self, state: ToyState) -> list[Any]:
        kind = "deal" if len(state.secrets) < 2 else "roll"
        return [(kind, n) for n in range(1, 7)]

    def sample_chance(self, state: ToyState, rng: SeedRng) -> Any:
        return self.chance_outcomes(state)[rng.randbelow(6)]

    def apply(self, state: ToyState, action: Any) -> ToyState:
        kind = action[0]
        if kind == "deal":
            secrets = (*state.secrets, action[1])
            return replace(state, secrets=secrets, seat=0 if len(secrets) == 2 else CHANCE)
        if kind == "roll":
            return replace(state, pot=state.pot + action[1], rolled=True)
        if kind == "take":
            return replace(state, pot=state.pot + action[1], takes=state.takes + 1)
        if kind == "done":
            return replace(state, seat=1 - state.seat, takes=0, rolled=False)
        return replace(state, resigned=state.seat)

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.resigned is not None:
            return Outcome.win(2, 1 - state.resigned, "resignation")
        if state.pot < 15:
            return None
        dist = [abs(s - state.pot % 7) for s in state.secrets]
        return Outcome.by_scores(dist, "pot full", higher_wins=False)

    def parse_action(self, state: ToyState, text: str) -> Any:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver("over")
        words = text.strip().lower().split()
        if words == [RESIGN] and seat != CHANCE:
            return ("resign",)
        if len(words) == 2 and words[1].isdigit():
            action = (words[0], int(words[1]))
        elif words == ["done"]:
            action = ("done",)
        else:
            raise MalformedAction(f"malformed action {text!r}")
        allowed = self.chance_outcomes(state) if seat == CHANCE else self.legal_actions(state)
        if action not in allowed:
            raise IllegalAction(f"{text.strip()!r} is not allowed here")
        return action

    def format_action(self, state: ToyState, action: Any) -> str:
        return " ".join(str(a) for a in action)

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {"pot": state.pot, "secret": state.secrets[seat]
                if seat is not None and seat < len(state.secrets) else None}

    def render(self, state: ToyState, seat: int | None, names: Any) -> str:
        return f"pot {state.pot}"

    def randomize_hidden(self, state: ToyState, seat: int | None, rng: SeedRng) -> ToyState:
        secrets = tuple(s if i == seat else rng.die() for i, s in enumerate(state.secrets))
        return replace(state, secrets=secrets)

    def mask_action(self, before: ToyState, action: Any, final: ToyState, seat: int | None) -> str:
        if action[0] == "deal" and len(before.secrets) != seat:
            return "deal ?"
        return self.format_action(before, action)
