"""Reading players' mail: one unambiguous sender, only the player's own text, and hostile mail
answered with one reason (or dropped when nobody can be answered), never an internal error."""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import joined_referee_game

from gametool.cli import cli
from gametool.records import load_one
from gametool.referee.mail import MailDropped, MailRejected
from gametool.referee.mail.body import KEY_LINE, PLY_LINE, find_instructions, find_key, own_lines
from gametool.referee.mail.keys import Keyring, new_key
from gametool.referee.mail.message import Letter, one_address
from gametool.referee.referee import Referee

ANN, BEN = "ann@example.org", "ben@example.net"
RUNNER = CliRunner()


# -- the sender ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "address"), [
    ("ann@example.org", ANN),
    ("Ann <ann@example.org>", ANN),
    ('"Smith, Ann" <Ann@Example.ORG>', ANN),
    ("ann@example.org (Ann Smith)", ANN),
    ('"ann@example.org" <ann@example.org>', ANN),
    ("=?utf-8?q?Ann_M=C3=BCller?= <ann@example.org>", ANN),
])
def test_one_plain_address_is_the_sender(value: str, address: str) -> None:
    assert one_address(value) == address


@pytest.mark.parametrize("value", [
    "ann@", "@example.org", "<@>", "", "ann", "ann@example.org, ben@example.net",
    "ben@example.net<ann@example.org>", "ben@example.net <ann@example.org>",
    '"ben@example.net" <ann@example.org>', "team: ann@example.org, ben@example.net;",
    "Ann <ann@example.org> <ben@example.net>", "<ann@example.org> ben@example.net",
    "Ann <ann@example.org", "=?utf-8?q?ben=40example.net?= <ann@example.org>",
    "a" * 300 + "@example.org", "x" * 5000,
])
def test_an_ambiguous_or_empty_from_names_nobody(value: str) -> None:
    with pytest.raises(MailDropped):
        one_address(value)


def test_two_from_headers_name_nobody() -> None:
    letter = Letter.parse(b"From: ann@example.org\r\nFrom: ben@example.net\r\n\r\nhi\r\n")
    with pytest.raises(MailDropped, match="2 From headers"):
        letter.sender()


def test_an_mbox_envelope_line_before_the_headers_is_skipped() -> None:
    letter = Letter.parse(b"From eve@example.com Sun Nov 22 2026\nFrom: ann@example.org\n\nhi\n")
    assert letter.sender() == ANN and letter.text() == "hi\n"


# -- the player's own text ------------------------------------------------------------------------

OWN = "Here is my move.\n\n#key K\n#ply 4\nplace b3\n"


@pytest.mark.parametrize("original", [
    "> #key K\n> #ply 4\n> place a1\n",
    "On Sun, 22 Nov 2026 at 10:00, Referee <referee@localhost> wrote:\n#key K\n#ply 4\nplace a1\n",
    "On Sun, 22 Nov 2026 at 10:00, Referee <referee@localhost\n> wrote:\n#ply 4\nplace a1\n",
    "-----Original Message-----\nFrom: Referee\n#ply 4\nplace a1\n",
    "________________________________\nFrom: Referee <referee@localhost>\n#ply 4\nplace a1\n",
    "From: Referee <referee@localhost>\nSent: Sunday, November 22, 2026 10:00\n"
    "To: ann@example.org\nSubject: [gametool x] ply 3\n\n#ply 4\nplace a1\n",
    "Am 22.11.2026 um 10:00 schrieb Referee <referee@localhost>:\n#ply 4\nplace a1\n",
    "-- \nAnn\n#ply 4\nplace a1\n",
])
def test_reading_stops_at_the_first_quoted_original(original: str) -> None:
    lines = own_lines(OWN + "\n" + original)
    assert find_key(lines) == "K"
    assert find_instructions(lines, 100).actions == ["place b3"]


@pytest.mark.parametrize("original", [
    "> #key K\n> #ply 4\n> place a1\n",
    "________________________________\nFrom: Referee\nSent: Sunday\n\n#key K\n#ply 4\nplace a1\n",
    "On Sunday, Referee wrote:\n#key K\n#ply 4\nplace a1\n",
    "-----Original Message-----\n#key K\n#ply 4\nplace a1\n",
])
def test_a_reply_without_its_own_key_and_action_is_refused_not_guessed(original: str) -> None:
    lines = own_lines("I'll send my move tomorrow.\n\n" + original)
    with pytest.raises(MailRejected, match="no '#key' line"):
        find_key(lines)


@pytest.mark.parametrize(("text", "reason"), [
    ("#ply 4\n#key K\nplace a1\n", "must come before"),
    ("#key K\n#key K\n#ply 4\nplace a1\n", "more than one"),
    ("#key K\n#ply four\nplace a1\n", "holds no number"),
    ("#key K\n#ply 0\nplace a1\n", "numbered from 1"),
    ("#key K\n#ply 101\nplace a1\n", "'#ply 101' is beyond the last ply of this game (100)"),
    ("#key K\n#ply " + "9" * 5000 + "\nplace a1\n", "of 5000 digits is beyond the last ply"),
    ("#key K\n#ply 4\nplace a1\n#key K\n", "must come before"),
    ("#key K\n#ply 4\nplace a1\n#ply 5\nplace b1\n", "among the actions"),
    ("#key K\n#ply 4\n" + "x" * 600 + "\n", "longer than 500"),
])
def test_key_and_guard_lines_out_of_shape_are_refused(text: str, reason: str) -> None:
    lines = own_lines(text)
    with pytest.raises(MailRejected, match=re.escape(reason)):
        find_key(lines)
        find_instructions(lines, 100)


# -- keys ---------------------------------------------------------------------------------------


def test_keys_are_long_random_and_kept_only_as_salted_hashes() -> None:
    ring = Keyring()
    first, second = ring.issue(ANN), ring.issue(BEN)
    assert first != second and len(first) * 5 == 160 and re.fullmatch("[a-z2-7]+", first)
    text = ring.text()
    assert first not in text and first.upper() not in text
    again = Keyring.from_text(text)
    assert again.matches(ANN, first) and not again.matches(ANN, second)
    assert again.matches(ANN, "-".join(first.upper()[i:i + 8] for i in range(0, 32, 8)))
    assert not again.matches("eve@example.com", first) and not again.matches(ANN, "")
    assert again.entries[ANN]["salt"] != again.entries[BEN]["salt"]
    assert len({new_key() for _ in range(50)}) == 50


def test_a_damaged_key_file_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="not a key file"):
        Keyring.from_text("{not json")


# -- hostile mail through the referee -------------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> tuple[Referee, str, str, Path]:
    ref = Referee(tmp_path / "games", tmp_path / "outbox")
    match, key, master = joined_referee_game(ref, "hostile", ANN, BEN)
    return ref, match, key, master


def raw(head: str, body: str) -> bytes:
    return (head.replace("\n", "\r\n") + "\r\n\r\n" + body.replace("\n", "\r\n")).encode()


@pytest.mark.parametrize(("head", "body", "answered", "reason"), [
    ("From: ann@", "", False, "no plain address"),
    ("From: ann@example.org\nFrom: ann@example.org", "", False, "From headers"),
    ("From: ben@example.net<ann@example.org>", "", False, "ambiguous"),
    ("From: friends: ann@example.org, ben@example.net;", "", False, "no plain address"),
    ("Subject: [gametool {m}]", "", False, "no From header"),
    # Which game is meant cannot be read: nobody is known to hold a seat, nothing is answered.
    ("From: ann@example.org\nSubject: [gametool {m}]\nSubject: [gametool {m}]", "", False,
     "holds no seat"),
    ("From: ann@example.org\nSubject: [gametool " + "a" * 100_000 + "]", "", False,
     "holds no seat"),
    ("From: ann@example.org\nSubject: [gametool {m}]", "#key {k}\n#ply " + "5" * 5000
     + "\nplace a1", True, "digits is beyond the last ply of this game"),
    ("From: ann@example.org\nSubject: [gametool {m}]", "#key {k}\n\x00#ply 3\nplace a1", True,
     "NUL"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Type: multipart/mixed; "
     "boundary=zz", "--zz\n\n#key {k}\n#ply 3\nplace a1\n", True, "cut off"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Type: multipart/mixed",
     "#key {k}\n#ply 3\nplace a1\n", True, "no usable boundary"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Type: text/plain; charset=bogus",
     "#key {k}\n#ply 3\nplace a1\n", True, "unknown charset 'bogus'"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Type: text/plain; charset=base64",
     "#key {k}\n#ply 3\nplace a1\n", True, "unknown charset"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Transfer-Encoding: x-gzip",
     "#key {k}\n#ply 3\nplace a1\n", True, "Content-Transfer-Encoding"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nthis is no header",
     "#key {k}\n#ply 3\nplace a1\n", True, "header block cannot be read"),
    ("From: ann@example.org\nSubject: [gametool {m}]\n" + "X-Pad: y\n" * 1200,
     "#key {k}\n#ply 3\nplace a1\n", True, "more than 1000 header fields"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nX-Huge: " + "h" * 300_000,
     "#key {k}\n#ply 3\nplace a1\n", True, "more than the referee reads"),
    ("From: ann@example.org\nSubject: [gametool {m}]", "#key {k}\n#ply 3\nplace a1\n"
     + "pad\n" * 80_000, True, "more than the referee reads"),
    ("From: ann@example.org\nSubject: [gametool {m}]\nContent-Type: text/html",
     "#key {k}\n#ply 3\nplace a1\n", True, "HTML-only"),
])
def test_hostile_mail_gets_one_reason_and_changes_nothing(
        game: tuple[Referee, str, str, Path], head: str, body: str, answered: bool,
        reason: str) -> None:
    ref, match, key, master = game
    before = master.read_bytes()
    receipt = ref.receive(raw(head.replace("{m}", match), body.replace("{k}", key)))
    assert not receipt.applied
    assert reason in receipt.reason and "\n" not in receipt.reason
    assert len(receipt.reason) < 1200
    assert [m.to for m in receipt.messages] == ([ANN] if answered else [])
    for item in receipt.messages:
        BytesParser(policy=policy.default).parsebytes(ref.render(item).encode())
    assert master.read_bytes() == before


def test_a_ply_past_the_game_s_last_is_refused_as_such(
        game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, master = game
    limit = load_one(master.read_text()).game.max_plies
    receipt = ref.receive(raw(f"From: ann@example.org\nSubject: [gametool {match}]",
                              f"#key {key}\n#ply {limit + 1}\nplace a1\n"))
    assert not receipt.applied
    assert receipt.reason == (f"'#ply {limit + 1}' is beyond the last ply of this game "
                              f"({limit})")


def test_bad_message_ids_and_injected_headers_never_reach_a_reply(
        game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, master = game
    for message_id in ("<@>", "<a@b>\r\n\tBcc: eve@example.com", "x" * 5000):
        head = (f"From: ann@example.org\nMessage-ID: {message_id}\nSubject: =?utf-8?q?"
                f"=5Bgametool_{match}=5D=0D=0ABcc:_eve@example.com?=")
        receipt = ref.receive(raw(head, f"#key {key}\n#ply 2\nplace a1\n"))
        assert not receipt.applied and "stale" in receipt.reason
        (reply,) = receipt.messages
        text = ref.render(reply)
        parsed = BytesParser(policy=policy.default).parsebytes(text.encode())
        assert parsed["Bcc"] is None and parsed["In-Reply-To"] is None
        assert "eve@example.com" not in text


def test_a_message_id_that_is_well_formed_is_answered_in_reply_to(
        game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, _master = game
    head = f"From: ann@example.org\nMessage-ID: <m1@example.org>\nSubject: [gametool {match}]"
    (reply,) = ref.receive(raw(head, f"#key {key}\n#ply 2\nplace a1\n")).messages
    assert reply.in_reply_to == "<m1@example.org>"


def test_encoded_subjects_and_base64_bodies_are_read(game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, _master = game
    mail = EmailMessage()
    mail["From"] = "Ann Müller <ann@example.org>"
    mail["Subject"] = f"Re: [gametool {match}] ply 2 – é"
    mail.set_content(f"Grüße!\n\n#key {key}\n#ply 3\nplace a1\n", cte="base64")
    receipt = ref.receive(bytes(mail))
    assert receipt.applied, receipt.reason


def test_the_size_limit_is_checked_before_parsing_through_the_cli(
        game: tuple[Referee, str, str, Path], tmp_path: Path) -> None:
    ref, match, key, master = game
    before = master.read_bytes()
    big = raw(f"From: ann@example.org\nSubject: [gametool {match}]",
              f"#key {key}\n#ply 3\nplace a1\n\n" + "x" * 5000)
    folders = ["--game-dir", str(ref.game_dir), "--outbox", str(ref.outbox)]
    result = RUNNER.invoke(cli, ["referee", "inbox", "-", "--max-bytes", "4096", *folders],
                           input=big)
    assert result.exit_code == 1
    assert f"the mail is {len(big)} bytes, more than the referee reads (4096)" in result.stderr
    assert master.read_bytes() == before
    dropped = RUNNER.invoke(cli, ["referee", "inbox", "-", *folders],
                            input=b"From: ann@\r\n\r\nhi\r\n")
    assert dropped.exit_code == 1
    assert dropped.stderr == "gametool: mail dropped: the From header holds no plain address\n"
    fits = RUNNER.invoke(cli, ["referee", "inbox", "-", "--max-bytes", "65536", *folders],
                         input=big)
    assert fits.exit_code == 0, fits.stderr


# -- the referee's own mail cannot be sent back as a move ----------------------------------------


def test_no_referee_mail_holds_a_line_that_reads_as_a_key_or_a_guard(
        game: tuple[Referee, str, str, Path]) -> None:
    ref, match, key, master = game
    sent = ref.new("belemmer", [ANN, BEN], seed="again", weak_seed_ok=True)[1]
    sent += ref.receive(raw(f"From: ann@example.org\nSubject: [gametool {match}]",
                            f"#key {key}\n#ply 3\nplace a1\n")).messages
    sent += ref.receive(raw(f"From: ann@example.org\nSubject: [gametool {match}]",
                            f"#key {key}\n#ply 3\nplace a1\n")).messages  # a rejection
    sent += ref.rekey(match, ANN)
    assert any("You are to move" in m.body for m in sent)
    for item in sent:
        for line in item.body.splitlines():
            assert not KEY_LINE.fullmatch(line.strip()) and not PLY_LINE.fullmatch(line.strip())
        before = master.read_bytes()
        back = ref.receive(raw(f"From: {item.to}\nSubject: Re: {item.subject}", item.body))
        assert not back.applied and master.read_bytes() == before


@pytest.mark.parametrize("name", ["Content-Type", "Content-Transfer-Encoding"])
def test_a_repeated_content_header_is_refused_not_guessed(
        game: tuple[Referee, str, str, Path], name: str) -> None:
    ref, match, key, master = game
    head = (f"From: ann@example.org\nSubject: [gametool {match}]\n{name}: text/plain\n"
            if name == "Content-Type" else
            f"From: ann@example.org\nSubject: [gametool {match}]\n{name}: 7bit\n")
    receipt = ref.receive(raw(head + head.splitlines()[-1], f"#key {key}\n#ply 3\nplace a1\n"))
    assert not receipt.applied and f"2 {name} headers" in receipt.reason


@pytest.mark.parametrize(("charset", "greeting"), [
    ("us-ascii", "Grüße".encode()),          # UTF-8 bytes under a charset that cannot hold them
    ("utf-8", "Grüße".encode("latin-1")),    # Latin-1 bytes declared as UTF-8
    ("iso-8859-1", "Grüße".encode("latin-1")),
])
def test_a_wrong_charset_does_not_hide_the_ascii_key_and_actions(
        game: tuple[Referee, str, str, Path], charset: str, greeting: bytes) -> None:
    ref, match, key, _master = game
    mail = (f"From: ann@example.org\r\nSubject: [gametool {match}]\r\nContent-Type: text/plain; "
            f"charset={charset}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n").encode()
    mail += greeting + f"\r\n\r\n#key {key}\r\n#ply 3\r\nplace a1\r\n".encode()
    receipt = ref.receive(mail)
    assert receipt.applied, receipt.reason
