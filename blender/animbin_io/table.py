"""The library's table of formats (``animbin.formats()``), by name.

The extension knows no format itself: its import and export entries, file filters,
drag-and-drop handlers and every per-format choice (which options an entry offers, what an
export writes) are read from this table. The few places that name a format say why next
to it (``__init__.BLENDER_OWN``, ``__init__.PUBLISHED_IMPORTS``,
``exporter.meshes_of``).
"""

from __future__ import annotations

import animbin

# Every format the library reads, in its detection order.
FORMATS = {entry["name"]: entry for entry in animbin.formats()}

# What a name the table lacks stands for (a format stored on an action by another version
# of the extension): nothing is assumed of it.
_UNKNOWN = {
    "name": "",
    "label": "",
    "extensions": [],
    "has_magic": True,
    "holds": [],
    "stores_framerate": True,
    "animation_kinds": ["absolute"],
    "names_animations": True,
    "several_animations": False,
    "length_ends_on_last_key": False,
    "chooses_precision": False,
    "interchange": False,
    "targets": [],
}


def info(name: str | None) -> dict:
    """The table's entry for format ``name`` (one of ``animbin.FORMATS``)."""
    return FORMATS.get(name or "", _UNKNOWN)


def extension(name: str) -> str:
    """The usual file extension of format ``name``, with its dot (``".seanim"``)."""
    extensions = info(name)["extensions"]
    return "." + extensions[0] if extensions else ""


def labels_holding_no(part: str) -> str:
    """The labels of the formats that do not hold ``part``, as a phrase: ``"AnimX, SEAnim
    or Shining Force III x8an"``."""
    names = [f["label"] for f in FORMATS.values() if part not in f["holds"]]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1] if names else ""
