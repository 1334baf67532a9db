"""The ends of compressed streams: a file cut short (an interrupted download or copy) is an
error naming the file, whatever its compression, never a shorter archive read as whole.

gzip, bzip2 and xz say so themselves (their readers raise at a missing end-of-stream marker).
zstd's streaming reader does not: :class:`ZstdFrames` walks the frames of the compressed bytes
as they pass (a frame's header, each block's three-byte header, its checksum), skipping the
blocks' contents, and at the end of the input tells whether the last frame was finished. A
file shorter than its compression's first bytes is cut as well (:func:`cut_magic`).
"""

from __future__ import annotations

import io
from typing import IO

from gametool.core.errors import GameError

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_SKIPPABLE = 0x184D2A50
"""The first of the sixteen magic numbers of a skippable zstd frame (its low four bits vary)."""


def cut(name: str, kind: str, detail: str = "") -> GameError:
    """The error of a compressed file that ends too soon."""
    more = f" ({detail})" if detail else ""
    return GameError(f"{name}: cut: the {kind} stream ends too soon{more}: an incomplete file "
                     "(an interrupted download or copy?)")


def damaged(name: str, kind: str, detail: str) -> GameError:
    return GameError(f"{name}: damaged: not a valid {kind} stream ({detail})")


def cut_magic(head: bytes, whole: bool, magics: tuple[tuple[bytes, str], ...],
              name: str) -> GameError | None:
    """The error of a file whose bytes are all of ``head`` (``whole``) and begin the magic of
    a compression without reaching its end; None otherwise. A short text of letters that
    happens to begin one ("B" of bzip2's "BZh") is text unless the file is named as that
    compression."""
    if not whole or not head:
        return None
    lowered = name.lower()
    for magic, kind in magics:
        if len(head) < len(magic) and magic.startswith(head):
            if lowered.endswith(_SUFFIX[kind]) or not 32 <= head[0] < 127:
                return cut(name, kind, f"{len(head)} byte{'s' * (len(head) != 1)}, shorter "
                           "than its first marker")
    return None


_SUFFIX = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz", "zstd": ".zst"}


class ZstdFrames:
    """Where the compressed bytes fed so far stand in zstd's frame format (RFC 8878)."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.skip = 0
        """Bytes still to pass over: a block's content, a checksum, a skippable frame."""
        self.state = "frame"
        """What comes next: a frame's magic ("frame"), a block's header ("block")."""
        self.checksum = False
        self.frames = 0
        self.error: str | None = None

    def feed(self, data: bytes) -> None:
        if self.error is not None:
            return
        if self.skip and not self.buffer:
            if len(data) <= self.skip:
                self.skip -= len(data)
                return
            data = data[self.skip:]
            self.skip = 0
        self.buffer += data
        self._walk()

    def _walk(self) -> None:
        buffer = self.buffer
        place = 0
        while True:
            if self.skip:
                step = min(self.skip, len(buffer) - place)
                place += step
                self.skip -= step
                if self.skip:
                    break
            left = len(buffer) - place
            if self.state == "frame":
                if left < 4:
                    break
                magic = int.from_bytes(buffer[place:place + 4], "little")
                if magic & 0xFFFFFFF0 == _SKIPPABLE:
                    if left < 8:
                        break
                    self.skip = int.from_bytes(buffer[place + 4:place + 8], "little")
                    place += 8
                    continue
                if buffer[place:place + 4] != ZSTD_MAGIC:
                    self.error = f"no frame begins at its frame {self.frames + 1}"
                    break
                if left < 5:
                    break
                descriptor = buffer[place + 4]
                single = descriptor >> 5 & 1
                size = 4 + 1 + (0 if single else 1) + (0, 1, 2, 4)[descriptor & 3] \
                    + ((1 if single else 0), 2, 4, 8)[descriptor >> 6]
                if left < size:
                    break
                self.checksum = bool(descriptor >> 2 & 1)
                place += size
                self.state = "block"
                self.frames += 1
                continue
            if left < 3:
                break
            header = int.from_bytes(buffer[place:place + 3], "little")
            place += 3
            kind, size = header >> 1 & 3, header >> 3
            if kind == 3:
                self.error = f"a block of the reserved type in frame {self.frames}"
                break
            self.skip = 1 if kind == 1 else size
            if header & 1:
                self.state = "frame"
                self.skip += 4 if self.checksum else 0
        del buffer[:place]

    def finished(self) -> bool:
        """Whether the bytes fed end where a frame does (and held at least one)."""
        return (self.error is None and self.state == "frame" and not self.skip
                and not self.buffer and self.frames > 0)


class ZstdChecked(io.RawIOBase):
    """A zstd file's compressed bytes as read, their frames walked; the end of the input
    inside a frame, or bytes that are no frame, is an error naming the file."""

    def __init__(self, raw: IO[bytes], name: str) -> None:
        self.raw = raw
        self.name_ = name
        self.frames = ZstdFrames()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(buffer))
        if not data:
            if self.frames.error is not None:
                raise damaged(self.name_, "zstd", self.frames.error)
            if not self.frames.finished():
                raise cut(self.name_, "zstd", "its last frame is not finished")
            return 0
        self.frames.feed(data)
        if self.frames.error is not None:
            raise damaged(self.name_, "zstd", self.frames.error)
        buffer[:len(data)] = data
        return len(data)
