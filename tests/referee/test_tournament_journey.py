"""Two tournaments by mail at once, end to end through the installed command: the players mail
one Maildir, the referee runs from cron (inbox, tick) and sends through a real SMTP server.

A round robin of four in chess (three days a move, a time bank of one day) where a leave saves
a player from a time forfeit, a late move spends a time bank, a note goes to the opponent, a
past position is asked for, prepared answers are played and dropped, one player takes the daily
digest and answers a game by replying to it, and one player is withdrawn after two time
forfeits; and a swiss of six in Colors paired round by round by the referee, one player's move
mails held for the digest. The standings are checked against tie-breaks worked out by hand,
every record validates, and every mail is checked for what its reader may not see."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("aiosmtpd")
import test_mail_transport  # noqa: E402
from test_mail_transport import Received, compose  # noqa: E402
from test_referee import hidden_words  # noqa: E402
from test_tournament import MATCH, Players, games_of, lines  # noqa: E402

smtp_server = test_mail_transport.smtp_server  # the real SMTP server on 127.0.0.1

ANN, BEN, CY, DEE = "ann@example.org", "ben@example.net", "cy@example.com", "dee@example.com"
NOTE = "Good luck, Cy"
PREPARED = ("Prepared", "then Nf3", "then Nc3", "then resign")


def at(club: Players, when: str) -> None:
    """The next inbox run happens at ``when`` (UTC); it adds its half hour itself."""
    club.time = datetime.fromisoformat(when).replace(tzinfo=UTC) - timedelta(minutes=30)


def audit(club: Players, sent: list[tuple[str, str, str]], authors: dict[str, str]) -> None:
    """Nothing in a mail that its reader may not see: no other seat's key, no running game's
    seed, nothing its exported record hides, no answer prepared by somebody else."""
    # Ben's note goes to Cy by mail, as it should; only the record's comment of it is his.
    notes = set(re.findall(r"[0-9A-Za-z]+", f"say {BEN} to others: {NOTE}"))
    for to, subject, body in sent:
        for (owner, _match), key in club.keys.items():
            assert owner == to or key not in body, f"a mail to {to} holds {owner}'s key"
        for match in set(MATCH.findall(subject)) | set(MATCH.findall(body)):
            path = club.games / f"{match}.gtn"
            if not path.is_file():
                continue  # a tournament's id
            text = path.read_text()
            seed = re.search(r'^\[Seed "([0-9a-f]+)"\]', text, re.M)
            if seed and seed.group(1) in body:
                assert "The game is over" in body and '[Result "*"]' not in text
            seats = re.search(r'^\[Players "(.*)"\]', text, re.M).group(1).split("; ")
            if to in seats and "\n\n" in text.strip():  # a seat, once something is played
                leaked = {w for w in hidden_words(text, to) - notes
                          if re.search(rf"(?<![0-9A-Za-z]){w}(?![0-9A-Za-z])", body)}
                assert not leaked, f"a mail to {to} shows {leaked}"
        if any(word in body for word in PREPARED):
            assert authors.get(subject.split("]")[0] + "]") == to, f"{to} sees {subject}"


def test_a_round_robin_and_a_swiss_by_mail_with_every_comfort(
        tmp_path: Path, smtp_server: tuple[Received, str]) -> None:
    received, address = smtp_server
    club = Players(tmp_path, received, address)
    p = [f"p{i}@example.org" for i in range(1, 7)]
    authors: dict[str, str] = {}  # the subject tag of a game: who prepared answers in it

    def inbox() -> list[tuple[str, str, str]]:
        sent = club.inbox()
        audit(club, sent, authors)
        return sent

    # p2 takes the digest, as the referee sets it.
    club.run("referee", "allow", p[1], "--digest", "daily", *club.folders, "--smtp", address)
    ((to, _subject, body),) = club.deliveries()
    assert to == p[1] and "Your player key:" in body and "Your digest is daily" in body
    rr = club.run("referee", "tournament", "new", "chess", "--players",
                  f"{ANN},{BEN},{CY},{DEE}", "--format", "round-robin", "--days", "3",
                  "--bank", "1", *club.folders, "--smtp", address).stdout.strip()
    swiss = club.run("referee", "tournament", "new", "colors", "--players", ",".join(p),
                     "--format", "swiss", "--rounds", "3", *club.folders,
                     "--smtp", address).stdout.strip()
    assert re.fullmatch(r"chess-rr-[0-9a-f]{8}", rr) and re.fullmatch(r"colors-swiss-[0-9a-f]{8}",
                                                                      swiss)
    opening = club.deliveries()
    audit(club, opening, authors)
    # Six chess games and three of Colors: every seat its opening mail, with its key and the
    # tournament named; every mail command listed, '#digest' among them.
    assert len(opening) == 18
    assert all(("Tournament " + (rr if "Chess" in subject else swiss)) in body
               and "seat key:" in body and "'#digest daily'" in body
               for _t, subject, body in opening)
    # The Berger table of four: 1-4, 2-3; 4-3, 1-2; 2-4, 3-1.
    played = games_of(rr, club.games)
    assert [(n, seats) for n, _m, seats in played] == [
        (1, [ANN, DEE]), (1, [BEN, CY]), (2, [DEE, CY]), (2, [ANN, BEN]), (3, [BEN, DEE]),
        (3, [CY, ANN])]
    g = {tuple(seats): match for _n, match, seats in played}
    authors.update({f"[gametool {g[(ANN, DEE)]}]": ANN, f"[gametool {g[(ANN, BEN)]}]": ANN,
                    f"[gametool {g[(CY, ANN)]}]": ANN})

    # The swiss: the better-numbered player always wins; the loser resigns on its move.
    rounds_seen: list[list[list[str]]] = []

    def swiss_first_moves(number: int) -> list[tuple[str, list[str]]]:
        tables = [(m, seats) for n, m, seats in games_of(swiss, club.games) if n == number]
        rounds_seen.append([seats for _m, seats in tables])
        for match, seats in tables:
            loser = max(seats, key=p.index)
            if seats[0] == loser:
                club.mail(loser, match, "#ply 1\nresign")
            else:
                body = [b for who, s, b in club.log if who == seats[0] and match in s][-1]
                first = body.split("Legal actions:\n", 1)[1].split("\n", 1)[0]
                club.mail(seats[0], match, f"#ply 1\n{first}")
        return tables

    def swiss_second_moves(tables: list[tuple[str, list[str]]]) -> None:
        for match, seats in tables:
            if seats[1] == max(seats, key=p.index):
                club.mail(seats[1], match, "#ply 2\nresign")

    # 09:30: first moves. Ben offers a draw with a note and takes the digest; Ann prepares
    # her answers to Dee's reply.
    tables = swiss_first_moves(1)
    club.mail(BEN, g[(BEN, CY)], f"#ply 1\nd4\n#draw\n#say {NOTE}\n#digest daily")
    club.mail(BEN, g[(BEN, DEE)], "#ply 1\nc4")
    club.mail(CY, g[(CY, ANN)], "#ply 1\nNf3")
    club.mail(ANN, g[(ANN, DEE)], "#ply 1\ne4\n#if e5 then Nf3\n#if c5 then Nc3")
    at(club, "2026-12-01T09:30")
    sent = inbox()
    assert any(to == CY and f"{BEN} says: {NOTE}" in body for to, _s, body in sent)
    assert any(to == CY and "Draw offered" in body for to, _s, body in sent)
    assert any(to == BEN and "Your digest is daily" in body for to, _s, body in sent)
    (prepared,) = [body for to, s, body in sent if "your #if" in s]
    assert "Prepared: 2 conditional moves" in prepared
    # p2 takes the digest: p1's move, which leaves p2 to move, is not mailed to p2.
    (p1_p2,) = [m for m, seats in tables if seats == [p[0], p[1]]]
    assert not [s for to, s, _b in sent if to == p[1] and p1_p2 in s]
    assert any(to == p[0] and p1_p2 in s for to, s, _b in sent)

    # 10:00: Ann moves against Ben, prepared; Cy takes three days of leave and asks for the
    # position after ply 1 and the standings.
    swiss_second_moves(tables)
    club.mail(ANN, g[(ANN, BEN)], "#ply 1\ne4\n#if e5 then Nf3")
    club.mail(CY, g[(BEN, CY)], "#leave 3\n#show 1\n#standings")
    at(club, "2026-12-01T10:00")
    sent = inbox()
    # Ben takes the digest: Ann's move, which waits for his, is not mailed to him; Cy's leave
    # and the end of p2's resigned game go out at once.
    assert not [s for to, s, _b in sent if to == BEN and g[(ANN, BEN)] in s]
    assert any(to == BEN and f"{CY} is on leave" in body for to, _s, body in sent)
    assert any(to == p[1] and p1_p2 in s and "The game is over" in body
               for to, s, body in sent)
    (answer,) = [body for to, s, body in sent if to == CY and "your #show, #standings" in s]
    view = club.run("show", str(club.games / f"{g[(BEN, CY)]}.gtn"), "--ply", "1",
                    "--as", CY).stdout
    assert " ".join(view.split()) in " ".join(answer.split())
    assert f"Tournament {rr}" in answer and "Sonneborn-Berger" in answer
    assert any(to == CY and "Your leave of 3 days runs from 2026-12-01T10:00:00Z" in body
               for to, _s, body in sent)

    # The swiss's rounds 2 and 3, paired by the referee as each round ends.
    for number in (2, 3):
        tables = swiss_first_moves(number)
        inbox()
        swiss_second_moves(tables)
        inbox()
    # Worked by hand. Round 1, nobody has points: 1-2, 3-4, 5-6. Round 2, ranked p1 p3 p5
    # (a point each) then p2 p4 p6: p1-p3, p5 meets p2 (p2, black before, gets the first seat),
    # p4-p6. Round 3, ranked p1 (2) p2 p3 p4 p5 (1) p6 (0): p1 has met p2 and p3, so p1-p4
    # (p4 sat second before, p1 first twice: p4 first); then p2: p3 leaves p5-p6, who met, so
    # p2-p6 (p6 sat second twice: first), and p3-p5.
    assert rounds_seen == [
        [[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]],
        [[p[0], p[2]], [p[1], p[4]], [p[3], p[5]]],
        [[p[3], p[0]], [p[5], p[1]], [p[2], p[4]]]]
    # Points 3 2 2 1 1 0; Buchholz, the sum of the opponents' points: p1 2+2+1 = 5,
    # p2 3+1+0 = 4, p3 1+3+1 = 5, p4 2+0+3 = 5, p5 0+2+2 = 4, p6 1+1+2 = 4.
    table = club.standings(swiss)
    assert table["finished"] and table["tiebreak"] == "Buchholz"
    assert [line["player"] for line in table["lines"]] == [p[0], p[2], p[1], p[3], p[4], p[5]]
    assert lines(table) == {p[0]: (3, 5), p[1]: (2, 4), p[2]: (2, 5), p[3]: (1, 5),
                            p[4]: (1, 4), p[5]: (0, 4)}
    assert sorted(who for who, s, _b in club.log if "the tournament is over" in s
                  and swiss in s) == sorted(p)

    # The next morning's tick: one digest for Ben, listing the one game waiting for him, with
    # his view and its deadline; none for p2, whose games are over. A second tick the same day
    # sends none.
    club.time = datetime(2026, 12, 2, 9, 5, tzinfo=UTC)
    assert "digests 1; 1 message written" in club.tick().stdout
    ((to, subject, digest),) = club.deliveries()
    assert to == BEN and subject == "[gametool] your digest of 2026-12-02: 1 game waiting"
    assert digest.count("==== [gametool ") == 1 and f"==== [gametool {g[(ANN, BEN)]}] ====" \
        in digest
    assert "You are to move at ply 2" in digest and "ann@example.org: e4" in digest
    # Ann's e4 came at 10:00 on the 1st: three days a move, then a day of bank.
    assert ("Your time for this move runs to 2026-12-04T10:00:00Z (UTC, 3 days a move); then "
            "your time bank, 1.0 days left, runs to 2026-12-05T10:00:00Z") in digest
    audit(club, [(to, subject, digest)], authors)
    club.time = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
    assert "digests 0" in club.tick().stdout
    assert club.deliveries() == []

    # 21:00: Ben answers by replying to the digest, the game's tag in his own text, the digest
    # quoted below: he resigns, and Ann's prepared answer (to e5) is dropped. Ann answers Cy,
    # prepared to resign if Cy plays Nc3.
    quoted = "\n".join(f"> {line}" for line in digest.split("\n"))
    club.box.add(compose(BEN, f"Re: {subject}",
                         f"[gametool {g[(ANN, BEN)]}]\n#key {club.keys[(BEN, g[(ANN, BEN)])]}\n"
                         f"#ply 2\nresign\n\nOn 2 Dec 2026, referee wrote:\n{quoted}\n"))
    club.mail(ANN, g[(CY, ANN)], "#ply 2\ne5\n#if Nc3 then resign")
    at(club, "2026-12-02T21:00")
    sent = inbox()
    assert '[Result "1-0"]' in club.record(g[(ANN, BEN)])
    assert not (club.games / f"{g[(ANN, BEN)]}.if").exists()
    # The move mail's deadline counts Cy's leave (the 1st 10:00 to the 4th 10:00): from the
    # 2nd 21:00, three days run to the 5th 21:00, plus the 37 hours of leave inside them: the
    # 7th 10:00; the bank's day then runs to the 8th 10:00.
    (to_cy,) = [body for to, s, body in sent if to == CY and g[(CY, ANN)] in s]
    assert ("Your time for this move runs to 2026-12-07T10:00:00Z (UTC, 3 days a move, your "
            "leave not counted); then your time bank, 1.0 days left, runs to "
            "2026-12-08T10:00:00Z") in to_cy

    # The 4th, 22:00: Dee answers Ann at last, 12 hours 30 minutes past the three days (Ann's
    # e4 came at 09:30 on the 1st): the bank pays them, 86400 - 45000 = 41400 seconds left.
    # Ann's prepared Nf3 is played at once.
    club.mail(DEE, g[(ANN, DEE)], "#ply 2\ne5")
    at(club, "2026-12-04T22:00")
    sent = inbox()
    record = club.record(g[(ANN, DEE)])
    assert "3. ann@example.org: Nf3" in record and "dee@example.com=41400" in record
    assert not (club.games / f"{g[(ANN, DEE)]}.if").exists()
    (to_dee,) = [body for to, s, body in sent if to == DEE]
    assert "You are to move at ply 4" in to_dee
    assert ("runs to 2026-12-07T22:00:00Z (UTC, 3 days a move); then your time bank, 0.5 days "
            "left, runs to 2026-12-08T09:30:00Z") in to_dee

    # The 5th, 11:00: Dee's time is gone against Cy (since the 1st 09:00: three days and the
    # bank's day, the 5th 09:00) and against Ben (c4 on the 1st 09:30: the 5th 09:30). Two
    # forfeits withdraw Dee, and the game against Ann is lost by forfeit. Cy, to answer Ben's
    # draw offer since the 1st 09:30, would be out of time at the 5th 09:30 as well, but his
    # three days of leave move it to the 8th 09:30.
    club.time = datetime(2026, 12, 5, 11, 0, tzinfo=UTC)
    done = club.tick()
    assert "forfeited 2," in done.stdout
    assert f"tournament {rr}: withdrawn {DEE}; 1 games forfeited" in done.stdout
    sent = club.deliveries()
    audit(club, sent, authors)
    told = [(who, body) for who, subject, body in sent if "withdrawn" in subject]
    assert sorted(who for who, _b in told) == sorted([ANN, BEN, CY, DEE])
    assert all(f"{DEE} is withdrawn after losing 2 games by time forfeit" in body
               and g[(ANN, DEE)] in body for _w, body in told)
    assert "forfeit: dee@example.com withdrawn from the tournament" in club.record(g[(ANN, DEE)])
    assert '[Result "*"]' in club.record(g[(BEN, CY)])

    # The 6th: Cy, back from leave, accepts the draw and plays Nc3; Ann's prepared resignation
    # follows at once. The round robin is over.
    club.mail(CY, g[(BEN, CY)], "#ply 2\n#accept")
    club.mail(CY, g[(CY, ANN)], "#ply 3\nNc3")
    at(club, "2026-12-06T10:00")
    sent = inbox()
    assert '[Result "1/2-1/2"]' in club.record(g[(BEN, CY)])
    assert "4. ann@example.org: resign" in club.record(g[(CY, ANN)])
    assert sorted(who for who, s, _b in sent if "the tournament is over" in s) == sorted(
        [ANN, BEN, CY, DEE])

    # Worked by hand: Cy 2.5 (drew Ben, beat Dee and Ann); Ann 2 (beat Dee and Ben); Ben 1.5
    # (drew Cy, beat Dee); Dee 0. Sonneborn-Berger: the points of those beaten, half of those
    # drawn: Cy 1.5/2 + 0 + 2 = 2.75; Ann 0 + 1.5 = 1.5; Ben 2.5/2 + 0 = 1.25; Dee 0.
    table = club.standings(rr)
    assert table["finished"] and table["tiebreak"] == "Sonneborn-Berger"
    assert [line["player"] for line in table["lines"]] == [CY, ANN, BEN, DEE]
    assert lines(table) == {CY: (2.5, 2.75), ANN: (2, 1.5), BEN: (1.5, 1.25), DEE: (0, 0)}
    assert [line["withdrawn"] for line in table["lines"]] == [False, False, False, True]

    # Ben's note is kept in the record for him (and the master) only; every record, the
    # masters and the seats' own files of the game with the note, validates.
    note_game = club.games / f"{g[(BEN, CY)]}.gtn"
    for seat in (BEN, CY):
        club.run("export", str(note_game), "--as", seat, "-o", str(tmp_path / f"{seat}.gtn"))
    assert NOTE in (tmp_path / f"{BEN}.gtn").read_text()
    assert NOTE not in (tmp_path / f"{CY}.gtn").read_text()
    done = club.run("validate", str(club.games), str(tmp_path / f"{BEN}.gtn"),
                    str(tmp_path / f"{CY}.gtn"))
    assert done.stdout.count(": ok") == len(games_of(rr, club.games)) + len(
        games_of(swiss, club.games)) + 2
