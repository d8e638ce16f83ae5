"""The exception and the warning that animbin raises and issues."""

from __future__ import annotations


class FormatError(ValueError):
    """A file (or dump, or scene) that animbin cannot read, convert or write.

    Raised for every error the library reports: bad bytes, an unknown format, a dump that
    does not parse, a conversion that would write nothing or (``strict=True``) lose data,
    and files that cannot be opened or written (the ``OSError`` is the ``__cause__``).

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
