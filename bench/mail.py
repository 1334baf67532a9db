"""How reading one hostile mail grows with its size, beside the standard library's parser.

    python bench/mail.py                  # sizes 64, 128 and 256 KB
    python bench/mail.py --sizes 32 256

For each shape of hostile mail (a subject of encoded words, thousands of header fields, a body of
quoted lines, hundreds of MIME parts, a '#ply' of many digits) prints the time the referee's
reader takes (header split, sender, subject, plain text, the player's own lines) at each size,
the growth from the smallest to the largest size (4.0 means linear for 64 to 256 KB), and the
time of ``email.parser.BytesParser(policy=policy.default)`` reading the same mail's subject and
body, which the referee used before.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from email import policy
from email.parser import BytesParser

from gametool.referee.mail import MailDropped, MailRejected
from gametool.referee.mail.body import own_lines
from gametool.referee.mail.message import Letter

HEAD = b"From: Ann <ann@example.org>\r\n"


def shapes(size: int) -> dict[str, bytes]:
    def fill(piece: bytes) -> bytes:
        return piece * (size // len(piece))

    body = b"\r\n#key K\r\n#ply 3\r\nplace a1\r\n"
    return {
        "encoded subject": HEAD + b"Subject: " + fill(b"=?utf-8?q?x?= ") + b"\r\n" + body,
        "header fields": HEAD + b"Subject: [gametool m]\r\n" + fill(b"X-A: b\r\n")[:-2] + body,
        "quoted lines": HEAD + b"Subject: s\r\n" + body + fill(b"> quoted line\r\n"),
        "mime parts": HEAD + b"Subject: s\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
        + fill(b"--b\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n")[: size - 40]
        + b"--b--\r\n",
        "long ply": HEAD + b"Subject: s\r\n\r\n#key K\r\n#ply " + fill(b"9") + b"\r\nx\r\n",
    }


def ours(raw: bytes) -> None:
    letter = Letter.parse(raw, max_bytes=len(raw))
    try:
        letter.sender()
        letter.subject()
        own_lines(letter.text())
    except (MailRejected, MailDropped):
        pass


def stdlib(raw: bytes) -> None:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    str(message.get("Subject", ""))
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        part.get_content()


def timed(read: Callable[[bytes], None], raw: bytes, budget: float = 3.0) -> float:
    start = time.perf_counter()
    read(raw)
    first = time.perf_counter() - start
    if first > budget / 3:
        return first
    runs = max(1, int(budget / 6 / max(first, 1e-4)))
    start = time.perf_counter()
    for _ in range(runs):
        read(raw)
    return (time.perf_counter() - start) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128, 256], metavar="KB")
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    print(f"{'shape':18} " + " ".join(f"{s:>7}KB" for s in sizes)
          + f" {'growth':>7} {'stdlib ' + str(sizes[-1]) + 'KB':>14} {'stdlib/ours':>12}")
    for name in shapes(1024):
        times = [timed(ours, shapes(size * 1024)[name]) for size in sizes]
        peer = timed(stdlib, shapes(sizes[-1] * 1024)[name])
        print(f"{name:18} " + " ".join(f"{t * 1000:7.1f}ms" for t in times)
              + f" {times[-1] / times[0]:7.1f} {peer * 1000:12.1f}ms {peer / times[-1]:12.1f}")


if __name__ == "__main__":
    main()
