"""One incoming mail as the referee needs it: one sender, a subject, and the plain text.

The reader is written for hostile input. Every step is linear in the size of the mail (headers
are split and MIME parts cut with ``bytes.find``, never by backtracking patterns or by looking
parents up once per part), and anything that could be read in two ways is refused with a reason
instead of being guessed: two ``From`` headers, a ``From`` holding a group, two addresses or a
display name that is itself an address, a multipart body cut off before its closing boundary.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from gametool.referee.mail import MailDropped, MailRejected

DEFAULT_MAX_BYTES = 256 * 1024
MAX_HEADER_FIELDS = 1000     # per header block
MAX_PARTS = 200              # MIME parts read in one mail
MAX_DEPTH = 8                # multipart inside multipart

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDRESS = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*")
_QUOTED = r'"(?:[^"\\\r\n]|\\[^\r\n])*"'
QUOTED = re.compile(_QUOTED)
PHRASE = re.compile(r'[^"<>@,;:\\()\[\]]*')   # display-name words: none of the specials
_BARE = re.compile(rf"({ADDRESS.pattern})(?:\s*\([^()\\\r\n]*\))?")
MAX_FROM = 1000
_MESSAGE_ID = re.compile(r"\s*(<[^<>@\s\"]{1,200}@[^<>@\s\"]{1,200}>)\s*")
_FIELD_NAME = re.compile(rb"[!-9;-~]{1,200}")
_ENCODED_WORD = re.compile(r"=\?([^?\s]{1,64})\?([bBqQ])\?([^?\s]*)\?=")
_BETWEEN_WORDS = re.compile(r"(?<=\?=)[ \t]+(?==\?)")
_PARAM = re.compile(rf'\s*([!#-\'*+.0-9A-Z^-~a-z]{{1,100}})\s*=\s*({_QUOTED}|[^;\s"]*)\s*')


def is_address(text: str) -> bool:
    """True for one plain address ``local@domain`` and nothing else."""
    return len(text) <= 254 and ADDRESS.fullmatch(text) is not None


def addresses(given: list[str]) -> list[str]:
    """The addresses a referee is given for seats or players, each checked as one address
    (lower case); a GameError names the first that is not."""
    from gametool.core.errors import GameError

    names = []
    for value in given:
        try:
            names.append(one_address(value))
        except MailDropped:
            raise GameError(f"{value!r} is not one email address") from None
    return names


def one_address(value: str) -> str:
    """The one address of a From-style header value, lower case; MailDropped if ambiguous."""
    value = value.strip()
    if len(value) > MAX_FROM:
        raise MailDropped(f"the From header is longer than {MAX_FROM} characters")
    if "<" not in value and ">" not in value:
        bare = _BARE.fullmatch(value)
        if bare is None:
            raise MailDropped("the From header holds no plain address")
        return _checked(bare.group(1))
    opening = value.find("<")
    if value.count("<") != 1 or value.count(">") != 1 or not value.endswith(">"):
        raise MailDropped("the From header is not one address in angle brackets (a group, "
                          "several addresses, or something after the address)")
    address = _checked(value[opening + 1:-1].strip())
    name = value[:opening].strip()
    if QUOTED.fullmatch(name):
        name = name[1:-1]
    elif not PHRASE.fullmatch(name):
        raise MailDropped("the From header's display name holds an address or special "
                          "characters: the sender is ambiguous")
    name = decode_words(name)
    if ("@" in name or "<" in name or ">" in name) and name.strip().lower() != address:
        raise MailDropped("the From header's display name holds another address: "
                          "the sender is ambiguous")
    return address


def _checked(address: str) -> str:
    if not is_address(address):
        raise MailDropped("the From header holds no plain address")
    return address.lower()


@dataclass
class Part:
    """A header block and the bytes after it."""

    fields: dict[str, list[str]] = field(default_factory=dict)
    body: bytes = b""
    problem: str | None = None

    def all(self, name: str) -> list[str]:
        return self.fields.get(name.lower(), [])

    def one(self, name: str) -> str | None:
        """The value of a header that must not be repeated; none when absent."""
        values = self.all(name)
        if len(values) > 1:
            raise MailRejected(f"the mail has {len(values)} {_title(name)} headers in one part; "
                               "which one is meant cannot be known")
        return values[0] if values else None


def _title(name: str) -> str:
    return "-".join(word.capitalize() for word in name.split("-")).replace("-Id", "-ID")


def _lines(data: bytes, start: int = 0) -> Iterator[tuple[int, int, int]]:
    """(start, end of content, start of next line) for every line of ``data``."""
    size = len(data)
    pos = start
    while pos < size:
        nl = data.find(b"\n", pos)
        nxt = size if nl < 0 else nl + 1
        end = nl if nl >= 0 else size
        if end > pos and data[end - 1:end] == b"\r":
            end -= 1
        yield pos, end, nxt
        pos = nxt


def split_part(data: bytes, top: bool = False) -> Part:
    """The header fields (unfolded, by lower-case name) and the body of one message or part."""
    part = Part()
    current: list[bytes] | None = None
    names: list[tuple[str, list[bytes]]] = []
    body_start = len(data)
    first = True
    for start, end, nxt in _lines(data):
        line = data[start:end]
        if first and top and line.startswith(b"From "):
            first = False
            continue  # the mbox envelope line a delivery agent puts before the headers
        first = False
        if not line:
            body_start = nxt
            break
        if line[:1] in (b" ", b"\t"):
            if current is None:
                part.problem = "the header block starts with a folded line"
                continue
            current.append(line)
            continue
        colon = line.find(b":")
        name = line[:colon] if colon > 0 else b""
        if colon <= 0 or not _FIELD_NAME.fullmatch(name.rstrip(b" \t")):
            # Not a header: the header block ended without its blank line.
            part.problem = (part.problem
                            or "a header line has no 'Name:' (the header block is malformed)")
            body_start = start
            break
        if len(names) >= MAX_HEADER_FIELDS:
            part.problem = f"more than {MAX_HEADER_FIELDS} header fields"
            body_start = len(data)
            break
        current = [line[colon + 1:]]
        names.append((name.rstrip(b" \t").decode("ascii").lower(), current))
    for name, pieces in names:
        value = b"".join(pieces).decode("utf-8", "replace")
        part.fields.setdefault(name, []).append(value.strip())
    part.body = data[body_start:]
    return part


def decode_words(text: str) -> str:
    """RFC 2047 encoded words decoded (leniently: a word that cannot be decoded stays as it is)."""
    def one(match: re.Match[str]) -> str:
        charset, kind, payload = match.group(1), match.group(2).lower(), match.group(3)
        try:
            if kind == "q":
                raw = binascii.a2b_qp(payload.replace("_", " ").encode("ascii", "replace"))
            else:
                raw = binascii.a2b_base64(payload.encode("ascii", "replace") + b"==")
            return raw.decode(charset.split("*", 1)[0], "replace")
        except (LookupError, ValueError, binascii.Error):
            return match.group(0)

    return _ENCODED_WORD.sub(one, _BETWEEN_WORDS.sub("", text))


def content_type(part: Part, default: str = "text/plain") -> tuple[str, dict[str, str]]:
    """The media type (lower case) and its parameters; the default when absent or unreadable."""
    value = part.one("content-type")
    if value is None:
        return default, {}
    if len(value) > 2000:
        raise MailRejected("a Content-Type header is longer than 2000 characters")
    kind, _, rest = value.partition(";")
    kind = kind.strip().lower()
    if not re.fullmatch(r"[a-z0-9!#$&^_.+-]{1,64}/[a-z0-9!#$&^_.+-]{1,64}", kind):
        return default, {}
    params: dict[str, str] = {}
    for piece in _PARAM.finditer(rest):
        name, raw = piece.group(1).lower(), piece.group(2)
        if raw.startswith('"'):
            raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
        params.setdefault(name, raw)
    return kind, params


@dataclass
class Letter:
    """The parts of one mail the referee reads."""

    raw: bytes
    head: Part
    max_bytes: int = DEFAULT_MAX_BYTES
    size: int = 0  # the whole mail's size, which may be more than ``raw`` holds

    @classmethod
    def parse(cls, raw: bytes, max_bytes: int = DEFAULT_MAX_BYTES,
              size: int | None = None) -> Letter:
        """Split the header block only; a mail over ``max_bytes`` is not read past its head."""
        head = split_part(raw[:max_bytes] if len(raw) > max_bytes else raw, top=True)
        return cls(raw, head, max_bytes, max(len(raw), size or 0))

    # -- the sender ------------------------------------------------------------------------

    def sender(self) -> str:
        """The one address of the one From header, lower case; MailDropped if there is none."""
        values = self.head.all("from")
        if not values:
            raise MailDropped("no From header: nobody to answer")
        if len(values) > 1:
            raise MailDropped(f"{len(values)} From headers: the sender is ambiguous")
        return one_address(values[0])

    # -- other headers ---------------------------------------------------------------------

    def subject(self) -> str:
        values = self.head.all("subject")
        if len(values) > 1:
            raise MailRejected(f"the mail has {len(values)} Subject headers; send one")
        return decode_words(values[0]) if values else ""

    def message_id(self) -> str | None:
        """The Message-ID, when there is exactly one and it is well formed (else none is used)."""
        values = self.head.all("message-id")
        value = values[0] if len(values) == 1 else None
        found = _MESSAGE_ID.fullmatch(value) if value is not None else None
        return found.group(1) if found else None

    def check(self) -> None:
        """Refuse mail too large, with NUL bytes, or with a header block that cannot be read."""
        if self.size > self.max_bytes:
            raise MailRejected(f"the mail is {self.size} bytes, more than the referee reads "
                               f"({self.max_bytes}); send your actions as plain text, without "
                               "attachments")
        if b"\x00" in self.raw:
            raise MailRejected("the mail holds NUL bytes; send plain text")
        if self.head.problem is not None:
            raise MailRejected(f"the mail's header block cannot be read: {self.head.problem}")

    # -- the text --------------------------------------------------------------------------

    def text(self) -> str:
        """The first plain-text part that is not an attachment or a forwarded message."""
        saw_html = False
        pending: list[tuple[Part, int]] = [(self.head, 0)]
        seen = 0
        while pending:
            part, depth = pending.pop()
            seen += 1
            if seen > MAX_PARTS:
                raise MailRejected(f"the mail has more than {MAX_PARTS} MIME parts")
            kind, params = content_type(part)
            disposition = (part.one("content-disposition") or "").split(";", 1)[0]
            if disposition.strip().lower() == "attachment":
                continue
            if kind.startswith("multipart/"):
                if depth >= MAX_DEPTH:
                    raise MailRejected(f"the mail's MIME parts are nested more than {MAX_DEPTH} "
                                       "deep")
                children = _subparts(part, params.get("boundary"))
                pending.extend((child, depth + 1) for child in reversed(children))
            elif kind == "text/plain":
                text = _decoded(part, params)
                if not text.strip():
                    raise MailRejected("the message body is empty")
                return text
            elif kind == "text/html":
                saw_html = True
        if saw_html:
            raise MailRejected("the message has no plain-text part (HTML-only mail is not "
                               "read): send plain text")
        raise MailRejected("the message has no plain-text body")


def _subparts(part: Part, boundary: str | None) -> list[Part]:
    if not boundary or len(boundary) > 200:
        raise MailRejected("a multipart part of the mail has no usable boundary")
    delimiter = b"--" + boundary.encode("utf-8", "replace")
    closing = delimiter + b"--"
    data = part.body
    pieces: list[Part] = []
    begin: int | None = None
    previous_end = 0
    for start, end, nxt in _lines(data):
        line = data[start:end].rstrip(b" \t")
        if line != delimiter and line != closing:
            previous_end = end
            continue
        if begin is not None:
            pieces.append(split_part(data[begin:max(begin, previous_end)]))
            if len(pieces) > MAX_PARTS:
                raise MailRejected(f"the mail has more than {MAX_PARTS} MIME parts")
        if line == closing:
            return pieces
        begin = nxt
        previous_end = nxt
    raise MailRejected("the mail is cut off: a multipart part has no closing boundary")


def _decoded(part: Part, params: dict[str, str]) -> str:
    encoding = (part.one("content-transfer-encoding") or "7bit").strip().lower()
    data = part.body
    if encoding == "quoted-printable":
        data = binascii.a2b_qp(data)
    elif encoding == "base64":
        try:
            data = binascii.a2b_base64(re.sub(rb"[^A-Za-z0-9+/=]", b"", data))
        except binascii.Error:
            raise MailRejected("the mail's base64 text is damaged") from None
    elif encoding not in ("7bit", "8bit", "binary"):
        raise MailRejected(f"unknown Content-Transfer-Encoding {encoding[:40]!r}")
    charset = params.get("charset", "us-ascii").strip().lower() or "us-ascii"
    try:
        b"a".decode(charset)  # LookupError for unknown names and for bytes-to-bytes codecs
    except (LookupError, ValueError):
        raise MailRejected(f"unknown charset {charset[:40]!r}: send UTF-8 text") from None
    for name in (charset, "utf-8"):
        try:
            return data.decode(name)
        except (UnicodeError, ValueError):
            continue
    try:
        return data.decode(charset, "replace")
    except (UnicodeError, ValueError):  # a codec that fails even when told to replace
        return data.decode("utf-8", "replace")
