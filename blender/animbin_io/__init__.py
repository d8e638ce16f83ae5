"""animbin for Blender: File > Import and File > Export for SEAnim, SEModel, Cast, AnimX,
Shining Force III x8an and DMF, through the animbin Python package (bundled as a wheel).

Import entries (``bpy.ops.import_scene.animbin_<format>``) read a file with
``animbin.open(path).scene()`` and build an armature, meshes, materials and one action per
animation (``importer``). Export entries write the selected armature's actions
(``bpy.ops.export_anim.animbin_<format>``) or the selected meshes
(``bpy.ops.export_mesh.animbin_<format>``) through ``animbin.from_scene`` (``exporter``).
"""

from __future__ import annotations

import os

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import exporter, importer

UP_AXES = (
    ("Z", "Z Up", "The file is Z-up, as Blender (SE formats and most game data)"),
    ("Y", "Y Up", "The file is Y-up: its root object is turned +90 degrees about X to stand up in Blender"),
)


def _report_all(operator, messages) -> None:
    for message in messages:
        operator.report({"WARNING"}, message)


class _Import(ImportHelper):
    """Shared by every import entry: options and the multi-file loop."""

    bl_options = {"REGISTER", "UNDO", "PRESET"}
    format_name = None
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
    up_axis: EnumProperty(name="Up Axis", items=UP_AXES, default="Z")
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
        description="What an animation-only file (SEAnim, AnimX, x8an) animates",
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
    framerate: FloatProperty(
        name="Frame Rate",
        description="Frames per second for files that store none (0: animbin's defaults, 30 for x8an and 60 for AnimX)",
        default=0.0,
        min=0.0,
        max=10000.0,
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
            kinds=self.kinds,
            armature=self.armature,
            framerate=self.framerate or None,
            set_scene=self.set_scene,
        )

    def format_for(self, path: str):
        return self.format_name

    def execute(self, context):
        import animbin

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


class ImportSEAnim(_Import, bpy.types.Operator):
    """Import SEAnim animations (each file becomes an action on the active armature)"""

    bl_idname = "import_scene.animbin_seanim"
    bl_label = "Import SEAnim"
    filename_ext = ".seanim"
    filter_glob: StringProperty(default="*.seanim", options={"HIDDEN"})
    format_name = "seanim"


class ImportSEModel(_Import, bpy.types.Operator):
    """Import an SEModel: armature, meshes and materials"""

    bl_idname = "import_scene.animbin_semodel"
    bl_label = "Import SEModel"
    filename_ext = ".semodel"
    filter_glob: StringProperty(default="*.semodel", options={"HIDDEN"})
    format_name = "semodel"


class ImportCast(_Import, bpy.types.Operator):
    """Import a Cast file: armature, meshes, materials and animations"""

    bl_idname = "import_scene.animbin_cast"
    bl_label = "Import Cast"
    filename_ext = ".cast"
    filter_glob: StringProperty(default="*.cast", options={"HIDDEN"})
    format_name = "cast"


class ImportAnimX(_Import, bpy.types.Operator):
    """Import a Resonite AnimX (or AnimJ) animation: bone tracks become an action"""

    bl_idname = "import_scene.animbin_animx"
    bl_label = "Import AnimX"
    filename_ext = ".animx"
    filter_glob: StringProperty(default="*.animx;*.animj", options={"HIDDEN"})
    format_name = "animx"

    def format_for(self, path: str):
        # AnimJ is AnimX as JSON, which animbin recognises by its content.
        return None if path.lower().endswith(".animj") else "animx"


class ImportX8an(_Import, bpy.types.Operator):
    """Import a Shining Force III battle animation (x8an*.bin): one action per segment"""

    bl_idname = "import_scene.animbin_x8an"
    bl_label = "Import x8an"
    filename_ext = ".bin"
    filter_glob: StringProperty(default="*.bin", options={"HIDDEN"})
    format_name = "sf3"


class ImportDMF(_Import, bpy.types.Operator):
    """Import a Dash Model Format file: armature, meshes, embedded textures and animations"""

    bl_idname = "import_scene.animbin_dmf"
    bl_label = "Import DMF"
    filename_ext = ".dmf"
    filter_glob: StringProperty(default="*.dmf;*.dmf.json", options={"HIDDEN"})
    format_name = "dmf"

    def format_for(self, path: str):
        return None if path.lower().endswith(".json") else "dmf"


IMPORTS = (
    (ImportSEAnim, "SEAnim (.seanim)"),
    (ImportSEModel, "SEModel (.semodel)"),
    (ImportCast, "Cast (.cast)"),
    (ImportAnimX, "AnimX (.animx)"),
    (ImportX8an, "Shining Force III x8an (.bin)"),
    (ImportDMF, "DMF (.dmf)"),
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
    holds_several = False

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
                "Every action that animates the armature's bones, in the chosen file (formats that hold several animations: Cast)",
            ),
        ),
        default="ACTIVE",
    )
    kind: EnumProperty(
        name="Animation Kind",
        description="The kind of animation written; keys are rewritten against the rest pose",
        items=(
            ("ACTION", "As Imported", "The kind the action was imported with (absolute for actions made in Blender)"),
            ("absolute", "Absolute", "Keys are the bones' local transforms"),
            ("relative", "Relative", "Translations are offsets from the rest translation"),
            ("delta", "Delta", "Translations are offsets along the bone's rest axes"),
            ("additive", "Additive", "Translations and rotations are applied over the rest pose"),
        ),
        default="ACTION",
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
        import animbin

        armature = _armature_of(context)
        if armature is None:
            self.report({"ERROR"}, "Select an armature to export its actions")
            return {"CANCELLED"}
        if self.which == "ALL" and not self.holds_several:
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


class ExportSEAnim(_ExportActions, bpy.types.Operator):
    """Export the selected armature's actions as SEAnim"""

    bl_idname = "export_anim.animbin_seanim"
    bl_label = "Export SEAnim"
    filename_ext = ".seanim"
    filter_glob: StringProperty(default="*.seanim", options={"HIDDEN"})
    format_name = "seanim"
    precision: EnumProperty(
        name="Precision",
        description="How SEAnim stores translations and rotations",
        items=(
            ("ACTION", "As Imported", "The precision of the imported file (single for actions made in Blender)"),
            ("single", "Single", "32-bit floats"),
            ("double", "Double", "64-bit floats"),
        ),
        default="ACTION",
    )


class ExportCastAnimation(_ExportActions, bpy.types.Operator):
    """Export the selected armature's actions (with its skeleton) as Cast"""

    bl_idname = "export_anim.animbin_cast"
    bl_label = "Export Cast Animation"
    filename_ext = ".cast"
    filter_glob: StringProperty(default="*.cast", options={"HIDDEN"})
    format_name = "cast"
    holds_several = True


class ExportAnimX(_ExportActions, bpy.types.Operator):
    """Export the selected armature's actions as Resonite AnimX"""

    bl_idname = "export_anim.animbin_animx"
    bl_label = "Export AnimX"
    filename_ext = ".animx"
    filter_glob: StringProperty(default="*.animx", options={"HIDDEN"})
    format_name = "animx"


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
        return any(o.type == "MESH" for o in exporter.model_meshes(context))

    def execute(self, context):
        import animbin

        settings = exporter.ModelSettings(scale=self.scale, up_axis=self.up_axis, apply_modifiers=self.apply_modifiers)
        try:
            result = exporter.save_model(context, self.filepath, self.format_name, settings)
        except (animbin.FormatError, ValueError, OSError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        _report_all(self, result.warnings)
        return {"FINISHED"}


class ExportSEModel(_ExportModel, bpy.types.Operator):
    """Export the selected meshes (and their armature) as SEModel"""

    bl_idname = "export_mesh.animbin_semodel"
    bl_label = "Export SEModel"
    filename_ext = ".semodel"
    filter_glob: StringProperty(default="*.semodel", options={"HIDDEN"})
    format_name = "semodel"


class ExportCastModel(_ExportModel, bpy.types.Operator):
    """Export the selected meshes (and their armature) as a Cast model"""

    bl_idname = "export_mesh.animbin_cast"
    bl_label = "Export Cast Model"
    filename_ext = ".cast"
    filter_glob: StringProperty(default="*.cast", options={"HIDDEN"})
    format_name = "cast"


EXPORTS = (
    (ExportSEAnim, "SEAnim Animation (.seanim)"),
    (ExportCastAnimation, "Cast Animation (.cast)"),
    (ExportAnimX, "AnimX Animation (.animx)"),
    (ExportSEModel, "SEModel (.semodel)"),
    (ExportCastModel, "Cast Model (.cast)"),
)


def _file_handler(operator, label, extensions):
    """Drag and drop of these files onto Blender's 3D viewport runs ``operator``."""
    return type(
        f"ANIMBIN_FH_{operator.format_name}",
        (bpy.types.FileHandler,),
        {
            "bl_idname": f"ANIMBIN_FH_{operator.format_name}",
            "bl_label": label,
            "bl_import_operator": operator.bl_idname,
            "bl_file_extensions": extensions,
            "poll_drop": classmethod(lambda cls, context: context.area is not None and context.area.type == "VIEW_3D"),
        },
    )


FILE_HANDLERS = tuple(
    _file_handler(op, label, ext)
    for op, label, ext in (
        (ImportSEAnim, "SEAnim", ".seanim"),
        (ImportSEModel, "SEModel", ".semodel"),
        (ImportCast, "Cast", ".cast"),
        (ImportAnimX, "AnimX", ".animx;.animj"),
        (ImportDMF, "DMF", ".dmf"),
    )
)


def _menu_import(self, context):
    self.layout.separator()
    for operator, label in IMPORTS:
        self.layout.operator(operator.bl_idname, text=label)


def _menu_export(self, context):
    self.layout.separator()
    for operator, label in EXPORTS:
        self.layout.operator(operator.bl_idname, text=label)


CLASSES = tuple(op for op, _label in IMPORTS) + tuple(op for op, _label in EXPORTS) + FILE_HANDLERS


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
