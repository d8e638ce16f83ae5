"""animbin for Blender: File > Import and File > Export for every format the animbin library
reads, through the animbin Python package (bundled as a wheel).

The entries are built from the library's table of formats (``animbin.formats()``, see
``table``): an import entry per format (``bpy.ops.import_scene.animbin_<format>``), an
action export entry per format that holds animations
(``bpy.ops.export_anim.animbin_<format>``) and a mesh export entry per format that holds
meshes (``bpy.ops.export_mesh.animbin_<format>``), each with its file filter and the
options that matter for its format. Import reads a file with ``animbin.open(path).scene()``
and builds an armature, meshes, materials and one action per animation (``importer``);
export writes the selected armature's actions or the selected meshes through
``animbin.from_scene`` (``exporter``).
"""

from __future__ import annotations

import os

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

import animbin

from . import exporter, importer, table

# Blender reads and writes the interchange formats (glTF, FBX) with its own add-ons (File >
# Import > glTF 2.0, io_scene_gltf2; FBX, io_scene_fbx), which turn them into Blender data
# better than a second importer could: the formats of the table this extension offers no
# entry for, as the table names them.
BLENDER_OWN = tuple(name for name, entry in table.FORMATS.items() if entry["interchange"])

# Operator ids and labels are published (scripts and the tests call
# ``bpy.ops.import_scene.animbin_x8an``): the x8an import entry was published under the
# files' name rather than the format's (``sf3``), and keeps that id and label. Every other
# entry is ``animbin_<format>``, labelled from the table.
PUBLISHED_IMPORTS = {"sf3": ("x8an", "Import x8an")}

UP_AXES = (
    ("Z", "Z Up", "The file is Z-up, as Blender and most game data"),
    ("Y", "Y Up", "The file is Y-up: its root object is turned +90 degrees about X to stand up in Blender"),
)
# Import also reads the up axis a file states (Cast metadata), and X-up, which Cast can state.
IMPORT_UP_AXES = (
    ("FILE", "From File", "The up axis the file states (a Cast file's metadata), else Z"),
    *UP_AXES,
    ("X", "X Up", "The file is X-up: its root object is turned -90 degrees about Y to stand up in Blender"),
)

# What each animation kind means for an export (a kind the table adds later is offered by
# its name).
KINDS = {
    "absolute": ("Absolute", "Keys are the bones' local transforms"),
    "relative": ("Relative", "Translations are offsets from the rest translation"),
    "delta": ("Delta", "Translations are offsets along the bone's rest axes"),
    "additive": ("Additive", "Translations and rotations are applied over the rest pose"),
}
# What the parts of a scene become in Blender, for the entries' descriptions (a part the
# table adds later is named as it names it).
PARTS = {
    "bones": "armature",
    "meshes": "meshes",
    "materials": "materials",
    "textures": "embedded textures",
    "animations": "animations",
    "hair": "hair curves",
    "instances": "instances of other files (linked duplicates)",
}


def _report_all(operator, messages) -> None:
    for message in messages:
        operator.report({"WARNING"}, message)


def _phrase(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else "nothing"


def _glob(fmt) -> str:
    return ";".join(f"*.{extension}" for extension in fmt["extensions"])


def _menu_text(fmt, what: str = "") -> str:
    """``SEAnim Animation (.seanim)``: the label, what the entry writes when the format
    has two export entries, and the usual extension."""
    return f"{fmt['label']}{what} ({table.extension(fmt['name'])})"


# (Option descriptions from the table, as names: Blender evaluates the annotations below
# from their text.)
_ARMATURE_DESCRIPTION = (
    f"What the animations of a file without a skeleton animate ({table.labels_holding_no('bones')} files have none)"
)
_ALL_DESCRIPTION = (
    "Every action that animates the armature's bones, in the chosen file (formats that hold several animations: "
    + _phrase(f["label"] for f in table.FORMATS.values() if f["several_animations"] and f["name"] not in BLENDER_OWN)
    + ")"
)


class _Import(ImportHelper):
    """Shared by every import entry: options and the multi-file loop."""

    bl_options = {"REGISTER", "UNDO", "PRESET"}
    format_name = None
    # The format to read every file as, for a format whose files the library cannot
    # recognise (no magic: an x8an file is known by its name, which a file picked here need
    # not have); None lets the library detect each file's format.
    forced_format = None
    filename_ext = ""

    files: CollectionProperty(type=bpy.types.OperatorFileListElement, options={"HIDDEN", "SKIP_SAVE"})
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})
    scale: FloatProperty(
        name="Scale",
        description="Lengths in the file times this are Blender units (0.01: centimetres to metres)",
        default=1.0,
        min=1e-6,
        max=1e6,
        soft_min=0.001,
        soft_max=1000.0,
    )
    up_axis: EnumProperty(name="Up Axis", items=IMPORT_UP_AXES, default="FILE")
    sample_rotations: BoolProperty(
        name="Sample Every Frame (Slerp)",
        description="Key rotations at every frame between the file's keys, slerped (rotations turn along arcs "
        "between keys); off: the file's keys as they are, which Blender interpolates component by component",
        default=False,
    )
    kinds: EnumProperty(
        name="Animation Kind",
        description="How relative, delta and additive animations apply to the rest pose",
        items=(
            (
                "REST",
                "Over the Rest Pose",
                "Relative and additive translations add to the rest translation, delta translations run along the "
                "bone's rest axes, additive rotations follow the rest rotation (animbin's rules, as its glTF output)",
            ),
            ("ABSOLUTE", "As Absolute", "Every key is the bone's local transform, whatever kind the file states"),
        ),
        default="REST",
    )
    armature: EnumProperty(
        name="Armature",
        description=_ARMATURE_DESCRIPTION,
        items=(
            (
                "AUTO",
                "Active Armature",
                "The active armature (bones matched by name), or a new bare one when none is active",
            ),
            ("NEW", "New Armature", "A new armature with one bone per animated bone, at the origin"),
        ),
        default="AUTO",
    )
    set_scene: BoolProperty(
        name="Set Scene Frame Rate and Range",
        description="Set the scene's frame rate and range from the file's animations",
        default=True,
    )

    def paths(self) -> list:
        if self.files and self.directory:
            names = [f.name for f in self.files if f.name]
            if names:
                return [os.path.join(self.directory, name) for name in names]
        return [self.filepath]

    def settings(self) -> importer.Settings:
        return importer.Settings(
            scale=self.scale,
            up_axis=self.up_axis,
            sample_rotations=self.sample_rotations,
            kinds=self.kinds,
            armature=self.armature,
            # Offered only by the entries of formats that store no frame rate.
            framerate=getattr(self, "framerate", 0.0) or None,
            set_scene=self.set_scene,
        )

    def format_for(self, path: str):
        return self.forced_format

    def execute(self, context):
        if context.object is not None and context.object.mode != "OBJECT":
            bpy.ops.object.mode_set(mode="OBJECT")
        imported = 0
        for path in self.paths():
            try:
                result = importer.load(context, path, self.format_for(path), self.settings())
            except (animbin.FormatError, OSError) as error:
                self.report({"ERROR"}, f"{os.path.basename(path)}: {error}")
                continue
            _report_all(self, result.warnings)
            imported += 1
        return {"FINISHED"} if imported else {"CANCELLED"}


def _import_description(fmt) -> str:
    if fmt["holds"] == ["animations"]:
        each = "each animation" if fmt["several_animations"] else "each file"
        return f"Import {fmt['label']} animations ({each} becomes an action on the active armature)"
    return f"Import {fmt['label']} files: " + _phrase(PARTS.get(part, part) for part in fmt["holds"])


def _import_operator(fmt):
    """The import entry of one format of the table."""
    name = fmt["name"]
    suffix, label = PUBLISHED_IMPORTS.get(name, (name, f"Import {fmt['label']}"))
    annotations = {"filter_glob": StringProperty(default=_glob(fmt), options={"HIDDEN"})}
    if not fmt["stores_framerate"]:
        annotations["framerate"] = FloatProperty(
            name="Frame Rate",
            description=f"Frames per second of the keys ({fmt['label']} files store no frame rate; "
            "0: animbin's default for the format)",
            default=0.0,
            min=0.0,
            max=10000.0,
        )
    return type(
        f"ANIMBIN_OT_import_{suffix}",
        (_Import, bpy.types.Operator),
        {
            "__annotations__": annotations,
            "__doc__": _import_description(fmt),
            "bl_idname": f"import_scene.animbin_{suffix}",
            "bl_label": label,
            "bl_description": _import_description(fmt),
            "filename_ext": table.extension(name),
            "format_name": name,
            "forced_format": None if fmt["has_magic"] else name,
        },
    )


def _armature_of(context):
    """The armature to export: the active object if it is one, else the first selected
    armature, else the armature the active mesh is parented to."""
    obj = context.active_object
    if obj is not None and obj.type == "ARMATURE":
        return obj
    for other in context.selected_objects:
        if other.type == "ARMATURE":
            return other
    if obj is not None and obj.parent is not None and obj.parent.type == "ARMATURE":
        return obj.parent
    return None


class _ExportActions(ExportHelper):
    """Shared by the action export entries."""

    bl_options = {"REGISTER", "PRESET"}
    format_name = ""

    which: EnumProperty(
        name="Actions",
        description="Which of the armature's actions to write",
        items=(
            ("ACTIVE", "Active Action", "The armature's active action, to the chosen file"),
            (
                "EACH",
                "Each Action",
                "Every action that animates the armature's bones, one file each, named after it, in the chosen file's folder",
            ),
            (
                "ALL",
                "All in One File",
                _ALL_DESCRIPTION,
            ),
        ),
        default="ACTIVE",
    )
    keys: EnumProperty(
        name="Keys",
        description="Where the keys come from",
        items=(
            ("KEYFRAMES", "Keyframes", "One key per keyframe of each channel (the F-curves' keyframe times)"),
            ("FRAMES", "Every Frame", "One key per frame of the action's range, from the F-curves"),
        ),
        default="KEYFRAMES",
    )
    scale: FloatProperty(
        name="Scale",
        description="Blender units times this are the file's lengths (100: metres to centimetres)",
        default=1.0,
        min=1e-6,
        max=1e6,
    )

    @classmethod
    def poll(cls, context):
        return _armature_of(context) is not None

    def execute(self, context):
        armature = _armature_of(context)
        if armature is None:
            self.report({"ERROR"}, "Select an armature to export its actions")
            return {"CANCELLED"}
        if self.which == "ALL" and not table.info(self.format_name)["several_animations"]:
            self.report({"ERROR"}, f"{self.bl_label}: the format holds one animation per file; choose Each Action")
            return {"CANCELLED"}
        settings = exporter.ActionSettings(
            kind=self.kind, keys=self.keys, scale=self.scale, precision=getattr(self, "precision", "ACTION")
        )
        try:
            result = exporter.save_actions(context, armature, self.filepath, self.format_name, self.which, settings)
        except (animbin.FormatError, ValueError, OSError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        _report_all(self, result.warnings)
        self.report({"INFO"}, f"wrote {len(result.paths)} file(s)")
        return {"FINISHED"}


def _export_actions_operator(fmt):
    """The action export entry of one format of the table that holds animations."""
    name = fmt["name"]
    two_entries = "meshes" in fmt["holds"]
    annotations = {
        "filter_glob": StringProperty(default=_glob(fmt), options={"HIDDEN"}),
        "kind": EnumProperty(
            name="Animation Kind",
            description="The kind of animation written; keys are rewritten against the rest pose",
            items=(
                (
                    "ACTION",
                    "As Imported",
                    "The kind the action was imported with (absolute for actions made in Blender, and where the "
                    "format cannot state it)",
                ),
                *((kind, *KINDS.get(kind, (kind.capitalize(), ""))) for kind in fmt["animation_kinds"]),
            ),
            default="ACTION",
        ),
    }
    if fmt["chooses_precision"]:
        annotations["precision"] = EnumProperty(
            name="Precision",
            description=f"How {fmt['label']} stores translations and rotations",
            items=(
                ("ACTION", "As Imported", "The precision of the imported file (single for actions made in Blender)"),
                ("single", "Single", "32-bit floats"),
                ("double", "Double", "64-bit floats"),
            ),
            default="ACTION",
        )
    with_skeleton = " (with its skeleton)" if "bones" in fmt["holds"] else ""
    description = f"Export the selected armature's actions{with_skeleton} as {fmt['label']}"
    return type(
        f"ANIMBIN_OT_export_anim_{name}",
        (_ExportActions, bpy.types.Operator),
        {
            "__annotations__": annotations,
            "__doc__": description,
            "bl_idname": f"export_anim.animbin_{name}",
            "bl_label": f"Export {fmt['label']}" + (" Animation" if two_entries else ""),
            "bl_description": description,
            "filename_ext": table.extension(name),
            "format_name": name,
            "menu_text": _menu_text(fmt, " Animation"),
        },
    )


class _ExportModel(ExportHelper):
    """Shared by the mesh export entries."""

    bl_options = {"REGISTER", "PRESET"}
    format_name = ""

    scale: FloatProperty(
        name="Scale",
        description="Blender units times this are the file's lengths (100: metres to centimetres)",
        default=1.0,
        min=1e-6,
        max=1e6,
    )
    up_axis: EnumProperty(
        name="Up Axis",
        description="The file's up axis, for meshes without an armature (an armature's meshes are written in its space)",
        items=UP_AXES,
        default="Z",
    )
    apply_modifiers: BoolProperty(
        name="Apply Modifiers",
        description="Write the meshes with their modifiers applied (the Armature modifier excepted)",
        default=False,
    )

    @classmethod
    def poll(cls, context):
        curves, empties = exporter.model_extras(context)
        return bool(curves or empties) or any(o.type == "MESH" for o in exporter.model_meshes(context))

    def execute(self, context):
        settings = exporter.ModelSettings(scale=self.scale, up_axis=self.up_axis, apply_modifiers=self.apply_modifiers)
        try:
            result = exporter.save_model(context, self.filepath, self.format_name, settings)
        except (animbin.FormatError, ValueError, OSError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        _report_all(self, result.warnings)
        return {"FINISHED"}


def _export_model_operator(fmt):
    """The mesh export entry of one format of the table that holds meshes."""
    name = fmt["name"]
    two_entries = "animations" in fmt["holds"]
    description = (
        f"Export the selected meshes (and their armature), hair curves and instance empties as {fmt['label']} "
        "(what it cannot hold is reported)"
    )
    return type(
        f"ANIMBIN_OT_export_mesh_{name}",
        (_ExportModel, bpy.types.Operator),
        {
            "__annotations__": {"filter_glob": StringProperty(default=_glob(fmt), options={"HIDDEN"})},
            "__doc__": description,
            "bl_idname": f"export_mesh.animbin_{name}",
            "bl_label": f"Export {fmt['label']}" + (" Model" if two_entries else ""),
            "bl_description": description,
            "filename_ext": table.extension(name),
            "format_name": name,
            "menu_text": _menu_text(fmt, " Model" if two_entries else ""),
        },
    )


def _file_handler(operator, fmt):
    """Drag and drop of the format's files onto Blender's 3D viewport runs ``operator``."""
    return type(
        f"ANIMBIN_FH_{fmt['name']}",
        (bpy.types.FileHandler,),
        {
            "bl_idname": f"ANIMBIN_FH_{fmt['name']}",
            "bl_label": fmt["label"],
            "bl_import_operator": operator.bl_idname,
            "bl_file_extensions": ";".join(f".{extension}" for extension in fmt["extensions"]),
            "poll_drop": classmethod(lambda cls, context: context.area is not None and context.area.type == "VIEW_3D"),
        },
    )


# The table's formats in the menus' order (by label), less the ones Blender handles itself.
_OFFERED = sorted((f for f in table.FORMATS.values() if f["name"] not in BLENDER_OWN), key=lambda f: f["label"].lower())

# (operator, menu text) of each entry; a format's two export entries side by side.
IMPORTS = tuple((_import_operator(fmt), _menu_text(fmt)) for fmt in _OFFERED)
EXPORTS = tuple(
    (op, op.menu_text)
    for fmt in _OFFERED
    for op in (
        *([_export_actions_operator(fmt)] if "animations" in fmt["holds"] else []),
        *([_export_model_operator(fmt)] if "meshes" in fmt["holds"] else []),
    )
)
# A drop is matched by extension alone: only formats whose files the library recognises by
# their bytes get one (a format without magic, x8an, has the generic extension .bin, and
# would claim every .bin file dropped).
FILE_HANDLERS = tuple(
    _file_handler(op, table.info(op.format_name))
    for op, _text in IMPORTS
    if table.info(op.format_name)["has_magic"]
)


def _menu_import(self, context):
    self.layout.separator()
    for operator, text in IMPORTS:
        self.layout.operator(operator.bl_idname, text=text)


def _menu_export(self, context):
    self.layout.separator()
    for operator, text in EXPORTS:
        self.layout.operator(operator.bl_idname, text=text)


CLASSES = tuple(op for op, _text in IMPORTS) + tuple(op for op, _text in EXPORTS) + FILE_HANDLERS


def register():
    """Registers the operators, drag-and-drop handlers and menu entries."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    """Removes what ``register`` added."""
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
