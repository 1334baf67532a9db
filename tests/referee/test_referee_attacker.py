"""An attacker's mails: a refused mail changes no byte of the game folder, and its refusal is
a function of what the sender may see, the same words under another seed, another hidden
fleet, and whether or not the opponent has prepared an answer ('#if').

Each mail holds one line the referee would take and one it refuses (or one of either alone),
in chess (an opponent's prepared answer waiting or not), Tawula (two seeds whose past rolls
agree and whose next roll does not) and Special Salvo (two fleets hidden from the sender).
Every mail goes through the journal as ``inbox`` applies it; the whole folder is hashed before
and after. The full cross of lines is marked slow; the default run takes each bad line alone
and after one good one."""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from gametool.records import Session, load_one
from gametool.referee.mail.journal import Journal, digest
from gametool.referee.referee import Referee
from gametool.referee.transport import apply_once

ANN, BEN = "ann@example.org", "ben@example.net"
NOW = "2026-12-01T10:00:00Z"
KEY = re.compile(r"seat key: ([a-z2-7]+)$", re.M)
JOIN = {ANN: "0" * 32, BEN: "1" * 32}


def tree_hash(folder: Path) -> dict[str, str]:
    """Every file of the folder, by name, with the SHA-256 of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class Table:
    """A game by mail in a folder of its own, every mail applied through the journal."""

    def __init__(self, root: Path, game: str, secret: str) -> None:
        self.root = root
        self.ref = Referee(root / "games", root / "outbox", now=NOW)
        self.match, opening = self.ref.new(game, [ANN, BEN], seed=secret, weak_seed_ok=True)
        self.ref.write(opening)
        self.keys = {m.to: KEY.search(m.body).group(1) for m in opening}  # type: ignore
        self.count = 0
        if load_one(self.master.read_text()).contributions is not None:
            for who in (ANN, BEN):
                assert self.mail(who, f"#join {JOIN[who]}")[0]

    @classmethod
    def copy(cls, table: Table, root: Path) -> Table:
        shutil.copytree(table.root, root)
        made = cls.__new__(cls)
        made.root, made.match, made.keys = root, table.match, table.keys
        made.ref = Referee(root / "games", root / "outbox", now=NOW)
        made.count = table.count
        return made

    @property
    def master(self) -> Path:
        return self.root / "games" / f"{self.match}.gtn"

    def session(self) -> Session:
        return load_one(self.master.read_text())

    def mail(self, sender: str, text: str) -> tuple[bool, list[tuple[str, str, str]]]:
        """Apply one mail as ``inbox`` does; whether it was applied, and the mails written
        (to, subject, text), with the match id put out of the way."""
        self.count += 1
        mail = EmailMessage()
        mail["From"], mail["To"] = sender, "referee@localhost"
        mail["Subject"] = f"Re: [gametool {self.match}] mail"
        mail.set_content(f"#key {self.keys[sender]}\n{text}\n")
        raw = bytes(mail)
        outbox = self.root / "outbox"
        before = set(outbox.glob("*.eml"))
        journal = Journal(outbox)
        with journal.locked():
            outcome = apply_once(self.ref, journal, raw)
            journal.remove(digest(raw))
        (outbox / ".journal" / "refusals.json").unlink(missing_ok=True)  # one an hour
        out = []
        for path in sorted(set(outbox.glob("*.eml")) - before):
            got = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            out.append((str(got["To"]), str(got["Subject"]).replace(self.match, "MATCH"),
                        got.get_content().replace(self.match, "MATCH")))
        return outcome.applied, out


# -- the three games and their lines ----------------------------------------------------------


def chess(root: Path, variant: int) -> tuple[Table, str]:
    """Ann has played e4; Ben, to move, writes. Variants 1 and 3: Ann prepared '#if e5 then
    Nf3' with her move (variants 2 and 3: another secret)."""
    table = Table(root, "chess", "chess-secret-one" if variant < 2 else "chess-secret-two")
    line = "#ply 1\ne4" + ("\n#if e5 then Nf3" if variant % 2 else "")
    assert table.mail(ANN, line)[0]
    return table, BEN


CHESS_GOOD = ["#ply 2\ne5", "#ply 2\ne5\n#if Nf3 then Nc6", "#show", "#show 1", "#moves",
              "#games", "#standings", "#help", "#say hello", "#leave 3", "#digest daily",
              "#ply 2\n#draw", "#ply 2\ne5\n#draw"]
CHESS_BAD = ["#show 999", "#if pass then pass", "#if e4", "#if Nf3 then Nc6\n#if Nf3 then a6",
             "#leave 999", "#leave \uff13", "#ply 2\n#accept", "#ply 2\n#undo", "#bogus",
             "#ply 2\ne9", "#ply 2\nKe2", "#digest weekly", "#say", "#ply 7\ne5",
             "#new chess vs cy@example.com"]


@functools.cache
def tawula_secrets() -> tuple[str, str]:
    """Two secrets whose opening rolls agree (the sender sees the same game) and whose roll
    after the mover's first legal move does not."""
    seen: dict[tuple[str, int | None], str] = {}
    for number in range(400):
        secret = f"tawula-probe-{number}"
        session = Session.start("tawula", [ANN, BEN], None, secret, joint=True,
                                date="2026.12.01")
        for who in (ANN, BEN):
            session.contribute(who, JOIN[who])
        history = "\n".join(session.text().split("\n\n", 1)[1:])
        key = (history, session.to_move())
        if key in seen:
            return seen[key], secret
        seen[key] = secret
    raise AssertionError("no two secrets with the same opening rolls")


def tawula(root: Path, variant: int) -> tuple[Table, str]:
    """The seat to move after the opening rolls writes; the variants are two secrets."""
    table = Table(root, "tawula", tawula_secrets()[variant % 2])
    session = table.session()
    return table, session.names[session.to_move()]


def _first_legal(table: Table) -> str:
    session = table.session()
    return session.game.format_action(session.state, session.game.legal_actions(
        session.state)[0])


def tawula_good(table: Table) -> list[str]:
    ply = table.session().ply + 1
    move = f"#ply {ply}\n{_first_legal(table)}"
    return [move, "#show", "#moves", "#games", "#help", "#say hello", "#leave 3",
            "#digest daily"]


TAWULA_BAD = ["#if pass then pass", "#if h/1 h/2 then pass", "#show 999", "#leave 999",
              "#undo", "#accept", "#bogus", "#draw", "pass", "#digest weekly", "#ply 99\npass"]


def _fleet(session: Session, seat: str, last: bool) -> list[str]:
    """A whole fleet, ship by ship: the first legal placement each time (or the last)."""
    trial = load_one(session.text(), session.file)
    out = []
    while trial.to_move() is not None and trial.names[trial.to_move()] == seat:
        legal = trial.game.legal_actions(trial.state)
        action = trial.game.format_action(trial.state, legal[-1 if last else 0])
        trial.play([action], seat, trial.ply + 1, draw=False)
        out.append(action)
    return out


def salvo(root: Path, variant: int) -> tuple[Table, str]:
    """Both fleets placed, Ann to fire. Variants: Ben's fleet (hidden from Ann) in one corner
    or the other, under two secrets."""
    table = Table(root, "special-salvo", "salvo-one" if variant < 2 else "salvo-two")
    for seat, last in ((ANN, False), (BEN, bool(variant % 2))):
        session = table.session()
        fleet = _fleet(session, seat, last)
        assert table.mail(seat, f"#ply {session.ply + 1}\n" + "\n".join(fleet))[0]
    return table, ANN


def salvo_good(table: Table) -> list[str]:
    ply = table.session().ply + 1
    return [f"#ply {ply}\n{_first_legal(table)}", "#show", "#show 2", "#moves", "#help",
            "#say hello", "#leave 3", "#digest daily"]


SALVO_BAD = ["#if fire a1 then fire a2", "#show 999", "#leave 999", "#accept", "#bogus",
             "#ply 3\nfire z99", "#ply 3\nplace cv a1 e", "#digest weekly", "#ply 9\nfire a1",
             "#say"]

GAMES = {
    "chess": (chess, lambda table: CHESS_GOOD, CHESS_BAD, 4),
    "tawula": (tawula, tawula_good, TAWULA_BAD, 2),
    "special-salvo": (salvo, salvo_good, SALVO_BAD, 4),
}


def mails(good: list[str], bad: list[str], full: bool) -> list[str]:
    """Each bad line alone and after good ones (every good one with ``full``, else two)."""
    out = list(bad)
    for index, wrong in enumerate(bad):
        chosen = good if full else [good[index % len(good)]]
        out += [f"{right}\n{wrong}" for right in chosen]
        if full:
            out += [f"{wrong}\n{right}" for right in chosen]
    return out


def probe(tmp_path: Path, game: str, full: bool) -> dict[str, int]:
    build, good_of, bad, variants = GAMES[game]
    bases = [build(tmp_path / f"base{v}", v) for v in range(variants)]
    good = good_of(bases[0][0])
    counts = {"mails": 0, "refused": 0, "applied": 0}
    for number, text in enumerate(good):  # the good lines are good
        table = Table.copy(bases[0][0], tmp_path / f"good{number}")
        assert table.mail(bases[0][1], text)[0], (game, text)
        shutil.rmtree(table.root)
    for number, text in enumerate(mails(good, bad, full)):
        outcomes = []
        for variant, (base, sender) in enumerate(bases):
            table = Table.copy(base, tmp_path / f"try{number}-{variant}")
            games = table.root / "games"
            before = tree_hash(games)
            applied, out = table.mail(sender, text)
            counts["mails"] += 1
            if not applied:
                counts["refused"] += 1
                assert tree_hash(games) == before, f"{game}: {text!r} changed the folder"
                assert len(out) == 1 and out[0][0] == sender, (text, out)
                assert "not applied" in out[0][1] and "Reason:" in out[0][2], out
            else:
                counts["applied"] += 1
            outcomes.append((applied, out if not applied else None))
            shutil.rmtree(table.root)
        assert all(o == outcomes[0] for o in outcomes), (game, text, outcomes)
    return counts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_refused_mail_changes_nothing_and_tells_only_what_the_sender_sees(
        tmp_path: Path, game: str, record_property: object) -> None:
    counts = probe(tmp_path, game, full=False)
    assert counts["refused"] > 0
    record_property("mails", counts)  # type: ignore[operator]


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_good_line_with_every_bad_one(tmp_path: Path, game: str,
                                            record_property: object) -> None:
    counts = probe(tmp_path, game, full=True)
    assert counts["refused"] > 0
    record_property("mails", counts)  # type: ignore[operator]


def test_the_tawula_probe_names_no_roll(tmp_path: Path) -> None:
    """A move and '#if pass then pass': refused with the same words under both secrets, the
    roll that follows the move named nowhere, and nothing played."""
    said = []
    for variant in range(2):
        table, mover = tawula(tmp_path / f"t{variant}", variant)
        before = tree_hash(table.root / "games")
        ply = table.session().ply + 1
        applied, out = table.mail(mover, f"#ply {ply}\n{_first_legal(table)}\n"
                                         "#if pass then pass")
        assert not applied and tree_hash(table.root / "games") == before
        ((_to, _subject, text),) = out
        assert "roll" not in text and "for example" not in text
        said.append(text)
    assert said[0] == said[1]


def test_a_refused_mail_keeps_the_opponents_prepared_answer(tmp_path: Path) -> None:
    """Ann prepares '#if e5 then Nf3'; Ben's mail with e5 and a bad line is refused, and
    the prepared answer still comes when Ben sends e5 alone."""
    table, _ben = chess(tmp_path / "c", 1)
    prepared = (table.root / "games" / f"{table.match}.if").read_bytes()
    applied, _out = table.mail(BEN, "#ply 2\ne5\n#show 999")
    assert not applied
    assert (table.root / "games" / f"{table.match}.if").read_bytes() == prepared
    assert table.mail(BEN, "#ply 2\ne5")[0]
    moves = [t.actions[0].text for t in table.session().record.turns if t.seat != "chance"]
    assert moves[-3:] == ["e4", "e5", "Nf3"]


def test_prepared_answers_meet_in_one_mail(tmp_path: Path) -> None:
    """Ann: e4 and '#if e5 then Nf3'; Ben: e5 and '#if Nf3 then Nc6' (as '#help' invites):
    accepted, and both answers are played in turn; a draw offered with the move lapses."""
    table, _ben = chess(tmp_path / "c", 1)
    applied, out = table.mail(BEN, "#ply 2\ne5\n#if Nf3 then Nc6\n#draw")
    assert applied
    moves = [t.actions[0].text for t in table.session().record.turns]
    assert moves[-4:] == ["e4", "e5", "Nf3", "Nc6"]
    assert table.session().record.get("DrawOffer") is None
    assert not (table.root / "games" / f"{table.match}.if").exists()
    assert any("Prepared in advance: ann@example.org answers with Nf3" in text
               for _to, _s, text in out)


def test_leave_in_a_refused_mail_is_not_spent(tmp_path: Path) -> None:
    table, ben = chess(tmp_path / "c", 0)
    for bad in ("#show 999", "#if pass then pass", "#ply 2\ne9"):
        applied, _out = table.mail(ben, f"#leave 3\n{bad}")
        assert not applied
        assert not (table.root / "games" / "leave.json").exists()
    assert table.mail(ben, "#leave 3")[0]
    assert "ben@example.net" in (table.root / "games" / "leave.json").read_text()


def test_a_reply_whose_own_text_names_two_games_is_refused_as_ambiguous(tmp_path: Path) -> None:
    ref = Referee(tmp_path / "games", tmp_path / "outbox", now=NOW)
    (one, first), (two, _second) = (ref.new("chess", [ANN, BEN]) for _ in range(2))
    key = KEY.search(next(m.body for m in first if m.to == ANN)).group(1)  # type: ignore
    before = tree_hash(tmp_path / "games")
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = ANN, "referee@localhost", "Re: my games"
    mail.set_content(f"[gametool {one}]\n[gametool {two}]\n#key {key}\n#ply 1\ne4\n")
    applied, out, reason = ref.receive(bytes(mail))
    assert not applied and "names several games" in (reason or "")
    assert [m.to for m in out] == [ANN]
    assert tree_hash(tmp_path / "games") == before
