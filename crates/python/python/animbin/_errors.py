"""The exception and the warning that animbin raises and issues."""

from __future__ import annotations


class FormatError(ValueError):
    """A file (or dump, or scene) that animbin cannot read or convert.

    Raised for what is wrong with an input: bad bytes, an unknown format, a dump that does
    not parse, a scene that no file can be written from (the field named), a conversion
    that would write nothing or (``strict=True``) lose data, and an input that cannot be
    read (the ``OSError``, with ``filename`` set, is the ``__cause__``). The message starts
    with the path of the file it concerns, when there is one. An output that cannot be
    written raises ``OSError`` (``PermissionError``, ``FileNotFoundError``...) instead.

    ``format`` names the format whose reader or writer failed (``"seanim"``), when one did;
    ``offset`` is the byte offset in the input where the error was found, when there is one.
    """

    format: str | None
    offset: int | None

    def __init__(self, message: str, format: str | None = None, offset: int | None = None) -> None:
        super().__init__(message)
        self.format = format
        self.offset = offset

    def __reduce__(self):  # keeps format and offset through pickling (multiprocessing)
        return (type(self), (str(self), self.format, self.offset))


class LossWarning(UserWarning):
    """Issued for each kind of data a conversion could not carry over, and for animation
    tracks that name bones the model lacks. ``strict=True`` makes these a ``FormatError``
    instead; ``warnings.catch_warnings(record=True)`` collects them."""
