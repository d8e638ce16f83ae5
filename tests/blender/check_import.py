"""What Blender shows of animbin's glTF output.

Every testdata file is converted to .glb by `animbin convert` and imported through
Blender's own glTF importer (bpy.ops.import_scene.gltf), and what Blender then holds is
checked against `animbin info --json` of the source, the source's dump, and the .glb itself:

- armatures: one per file with bones or animated nodes (never empties), with as many bones
  as the skin has joints and the source has bones;
- meshes: one object per glTF mesh, with the source's vertex count;
- materials and images: the materials the meshes use, by name, and their images (embedded
  ones loaded with pixels);
- actions: one per glTF animation, by name, and each action's frame range: Blender turns
  glTF seconds into frames at the scene's frame rate, so with the scene set to the file's
  rate first (as the README says) the range is the source's first and last key frame.

Beyond the samples as they are: a model with two SEAnims joined (actions named after the
files), a model with a texture beside it (embedded, with its pixels), and --z-up --scale 0.01
(no object scaled, the vertices in metres with Z up); and the way back: an animation that
Blender exports again (without animbin's extras) converted to SEAnim with --anim-type,
--looped and --framerate gives the source's header and keys.

Run with the Python that has the `bpy` module (pip install 'bpy==4.5.*' in a Python 3.11
virtual environment), or inside Blender 4.5 (blender -b -P check_import.py -- ARGS):

    python tests/blender/check_import.py --animbin target/debug/animbin --testdata testdata

Exit status 0 when every check holds, 1 otherwise (each failure is printed).
"""

import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import bpy

# A 1x1 RGBA PNG: a texture beside a model.
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8dfc0f01f000680027f104c1be100000000"
    "49454e44ae426082"
)


class Checks:
    """Collects failed checks instead of stopping at the first."""

    def __init__(self):
        self.failures = []
        self.passed = 0

    def equal(self, what, seen, expected):
        if seen == expected:
            self.passed += 1
        else:
            self.failures.append(f"{what}: Blender shows {seen!r}, expected {expected!r}")

    def close(self, what, seen, expected, tolerance=1e-4):
        ok = len(seen) == len(expected) and all(
            abs(a - b) <= tolerance * max(1.0, abs(b)) for a, b in zip(seen, expected)
        )
        if ok:
            self.passed += 1
        else:
            self.failures.append(f"{what}: Blender shows {tuple(seen)!r}, expected {tuple(expected)!r}")

    def true(self, what, condition):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)


class Animbin:
    """The `animbin` command."""

    def __init__(self, path):
        self.path = path

    def run(self, *args):
        done = subprocess.run([self.path, *map(str, args)], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"animbin {' '.join(map(str, args))} exited {done.returncode}: {done.stderr}")
        return done.stdout

    def info(self, path):
        return json.loads(self.run("info", "--json", path))

    def dump(self, path):
        return json.loads(self.run("dump", path))


def read_glb(path):
    """The JSON chunk and the BIN chunk of a .glb."""
    with open(path, "rb") as f:
        data = f.read()
    magic, _version, _length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF", path
    offset, document, binary = 12, None, b""
    while offset < len(data):
        length, kind = struct.unpack_from("<I4s", data, offset)
        chunk = data[offset + 8 : offset + 8 + length]
        if kind == b"JSON":
            document = json.loads(chunk)
        elif kind == b"BIN\0":
            binary = chunk
        offset += 8 + length
    return document, binary


def vec3s(document, binary, accessor):
    """The VEC3 float values of an accessor (as animbin writes them: tightly packed)."""
    a = document["accessors"][accessor]
    view = document["bufferViews"][a["bufferView"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    return [struct.unpack_from("<3f", binary, start + 12 * i) for i in range(a["count"])]


def import_glb(path, fps):
    """A fresh Blender scene at `fps`, the file imported, and what Blender holds."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    result = bpy.ops.import_scene.gltf(filepath=str(path))
    if result != {"FINISHED"}:
        raise RuntimeError(f"the importer returned {result}")
    # The importer adds one mesh as the display shape of bones: not the file's.
    shapes = {
        bone.custom_shape
        for obj in bpy.data.objects
        if obj.type == "ARMATURE"
        for bone in obj.pose.bones
        if bone.custom_shape is not None
    }
    objects = [obj for obj in bpy.data.objects if obj not in shapes]
    return {
        "objects": objects,
        "armatures": {o.name: len(o.data.bones) for o in objects if o.type == "ARMATURE"},
        "meshes": {o.name: len(o.data.vertices) for o in objects if o.type == "MESH"},
        "empties": [o.name for o in objects if o.type == "EMPTY"],
        "materials": sorted(m.name for m in bpy.data.materials),
        "images": {i.name: (tuple(i.size), i.packed_file is not None) for i in bpy.data.images},
        "actions": {a.name: tuple(a.frame_range) for a in bpy.data.actions},
    }


def expected_of(document):
    """What the .glb holds that Blender should show."""
    skins = document.get("skins", [])
    meshes = document.get("meshes", [])
    materials = document.get("materials", [])
    used = sorted(
        {p["material"] for m in meshes for p in m["primitives"] if "material" in p}
    )
    images = document.get("images", [])
    textures = document.get("textures", [])
    used_images = set()
    for m in used:
        material = materials[m]
        for info in (
            material.get("pbrMetallicRoughness", {}).get("baseColorTexture"),
            material.get("normalTexture"),
        ):
            if info is not None:
                used_images.add(textures[info["index"]]["source"])
    animations = []
    for anim in document.get("animations", []):
        inputs = [document["accessors"][s["input"]] for s in anim["samplers"]]
        start = min(a["min"][0] for a in inputs)
        end = max(a["max"][0] for a in inputs)
        extras = anim.get("extras", {}).get("animbin", {})
        animations.append((anim.get("name", ""), start, end, extras.get("framerate")))
    return {
        "joints": [len(s["joints"]) for s in skins],
        "mesh_count": sum(1 for n in document.get("nodes", []) if "mesh" in n),
        "vertices": sum(
            document["accessors"][p["attributes"]["POSITION"]]["count"] for m in meshes for p in m["primitives"]
        ),
        "materials": sorted(materials[m].get("name", "") for m in used),
        "images": {images[i].get("name"): "bufferView" in images[i] for i in used_images},
        "animations": animations,
    }


def scene_rate(expected):
    """The frame rate to set before importing: the file's (Blender's rate is an integer)."""
    rates = [a[3] for a in expected["animations"] if a[3]]
    return int(round(rates[0])) if rates else 30


def last_seanim_key(dump):
    """The first and last key frames of an SEAnim dump."""
    frames = [
        key["frame"]
        for bone in dump["data"]["bones"]
        for channel in ("location", "rotation", "scale")
        for key in bone[channel]
    ]
    return min(frames), max(frames)


def check_sample(checks, animbin, source, glb):
    """One testdata file converted to glb, imported and compared."""
    name = os.path.basename(source)
    info = animbin.info(source)
    document, _ = read_glb(glb)
    expected = expected_of(document)
    fps = scene_rate(expected)
    seen = import_glb(glb, fps)

    # Armatures, never empties.
    checks.equal(f"{name}: empties", seen["empties"], [])
    checks.equal(f"{name}: armature bone counts", sorted(seen["armatures"].values()), sorted(expected["joints"]))
    if info["format"] in ("semodel", "dmf", "seanim") and info.get("bone_count"):
        checks.equal(f"{name}: bones (info bone_count)", sum(seen["armatures"].values()), info["bone_count"])

    # Meshes and vertices.
    checks.equal(f"{name}: mesh objects", len(seen["meshes"]), expected["mesh_count"])
    checks.equal(f"{name}: vertices", sum(seen["meshes"].values()), expected["vertices"])
    if "vertex_count" in info:
        checks.equal(f"{name}: vertices (info vertex_count)", sum(seen["meshes"].values()), info["vertex_count"])
    if "mesh_count" in info:
        checks.equal(f"{name}: mesh objects (info mesh_count)", len(seen["meshes"]), info["mesh_count"])

    # Materials and images.
    checks.equal(f"{name}: materials", seen["materials"], expected["materials"])
    for image, embedded in expected["images"].items():
        checks.true(f"{name}: image {image!r} is in Blender", image in seen["images"])
        if embedded and image in seen["images"]:
            size, packed = seen["images"][image]
            checks.true(f"{name}: embedded image {image!r} has pixels ({size})", size[0] > 0 and packed)

    # Actions and their frame ranges at the scene's rate.
    checks.equal(
        f"{name}: action names", sorted(seen["actions"]), sorted(a[0] for a in expected["animations"])
    )
    for anim_name, start, end, _rate in expected["animations"]:
        if anim_name in seen["actions"]:
            checks.close(
                f"{name}: action {anim_name!r} frame range at {fps} fps",
                seen["actions"][anim_name],
                (start * fps, end * fps),
            )
    if info["format"] == "seanim":
        # The scene at the file's rate: Blender's frames are the file's frames.
        checks.equal(f"{name}: scene rate", fps, int(info["framerate"]))
        first, last = last_seanim_key(animbin.dump(source))
        action = os.path.splitext(name)[0]
        checks.equal(f"{name}: action named after the file", sorted(seen["actions"]), [action])
        if action in seen["actions"]:
            checks.close(f"{name}: action frame range in the file's frames", seen["actions"][action], (first, last))


def check_joined_animations(checks, animbin, testdata, work):
    """A model with two SEAnims joined: actions named after the files."""
    walk = os.path.join(work, "walk.seanim")
    run = os.path.join(work, "run.seanim")
    shutil.copy(os.path.join(testdata, "sample.seanim"), walk)
    shutil.copy(os.path.join(testdata, "sample_every_block.seanim"), run)
    glb = os.path.join(work, "joined.glb")
    animbin.run("convert", os.path.join(testdata, "sample.semodel"), glb, "--anim", walk, "--anim", run)
    seen = import_glb(glb, 30)
    checks.equal("--anim walk --anim run: action names", sorted(seen["actions"]), ["run", "walk"])
    # One armature: the model's bones, and a bone for each track that names none of them.
    model_bones = animbin.info(os.path.join(testdata, "sample.semodel"))["bone_count"]
    document, _ = read_glb(glb)
    joints = len(document["skins"][0]["joints"])
    checks.true(f"--anim walk --anim run: the model's {model_bones} bones among {joints} joints", joints >= model_bones)
    checks.equal("--anim walk --anim run: one armature", list(seen["armatures"].values()), [joints])
    # walk is 30 fps (keys 0..10), run 60 fps (keys 0..3): at 30 fps, 0..1.5.
    for action, (first, last), rate in (("walk", last_seanim_key(animbin.dump(walk)), 30), ("run", last_seanim_key(animbin.dump(run)), 60)):
        if action in seen["actions"]:
            checks.close(f"--anim {action}: frame range at 30 fps", seen["actions"][action], (first * 30 / rate, last * 30 / rate))


def check_textures(checks, animbin, testdata, work):
    """A texture beside the model is embedded: Blender loads its pixels from the .glb alone."""
    model_dir = os.path.join(work, "model")
    os.makedirs(os.path.join(model_dir, "_images"))
    model = os.path.join(model_dir, "model.semodel")
    shutil.copy(os.path.join(testdata, "sample.semodel"), model)
    with open(os.path.join(model_dir, "_images", "body_c.png"), "wb") as f:
        f.write(PNG_1X1)
    out_dir = os.path.join(work, "elsewhere")
    os.makedirs(out_dir)
    glb = os.path.join(out_dir, "model.glb")
    animbin.run("convert", model, glb)
    seen = import_glb(glb, 30)
    image = seen["images"].get("body_c.png")
    checks.equal("a texture beside the input: embedded and loaded (size, packed)", image, ((1, 1), True))
    checks.equal("a texture beside the input: material", seen["materials"], ["body"])


def check_axes_and_scale(checks, animbin, testdata, work):
    """--z-up --scale 0.01: no object scaled in Blender, the vertices in metres with Z up."""
    source = os.path.join(testdata, "sample.semodel")
    plain = os.path.join(work, "plain.glb")
    metres = os.path.join(work, "metres.glb")
    animbin.run("convert", source, plain)
    animbin.run("convert", "--z-up", "--scale", "0.01", source, metres)
    document, binary = read_glb(plain)
    positions = vec3s(document, binary, document["meshes"][0]["primitives"][0]["attributes"]["POSITION"])
    seen = import_glb(metres, 30)
    # The scale is in the data: no object is scaled (the Z-up turn stays on the root object,
    # which Blender shows as a rotation that its own Y-up conversion of the data undoes).
    for obj in seen["objects"]:
        checks.close(f"--z-up --scale 0.01: {obj.name} scale", tuple(obj.matrix_world.to_scale()), (1.0, 1.0, 1.0))
    meshes = [o for o in seen["objects"] if o.type == "MESH"]
    checks.equal("--z-up --scale 0.01: one mesh", len(meshes), 1)
    if meshes:
        world = [tuple(meshes[0].matrix_world @ v.co) for v in meshes[0].data.vertices]
        for i, (w, p) in enumerate(zip(world, positions)):
            # The source is Z-up like Blender: its coordinates, a hundredth.
            checks.close(f"--z-up --scale 0.01: vertex {i} in metres", w, tuple(c * 0.01 for c in p), 1e-5)


def check_back_from_blender(checks, animbin, testdata, work):
    """An animation exported again by Blender (no animbin extras left) converts back to the
    SEAnim it came from when the flags say what the glTF no longer does."""
    source = os.path.join(testdata, "sample.seanim")
    info = animbin.info(source)
    glb = os.path.join(work, "to-blender.glb")
    animbin.run("convert", os.path.join(testdata, "sample.semodel"), glb, "--anim", source)
    import_glb(glb, int(info["framerate"]))
    exported = os.path.join(work, "from-blender.glb")
    bpy.ops.export_scene.gltf(filepath=exported, export_format="GLB")
    document, _ = read_glb(exported)
    checks.true(
        "Blender's export keeps no animation extras",
        all("animbin" not in a.get("extras", {}) for a in document.get("animations", [])),
    )
    back = os.path.join(work, "back.seanim")
    animbin.run(
        "convert", exported, back, "--anim-type", info["anim_type"], "--looped", "--framerate", info["framerate"]
    )
    got = animbin.info(back)
    for key in ("anim_type", "looped", "framerate", "high_precision", "bone_count", "frame_count"):
        checks.equal(f"back from Blender: {key}", got[key], info[key])
    original = {b["name"]: b for b in animbin.dump(source)["data"]["bones"]}
    for bone in animbin.dump(back)["data"]["bones"]:
        if bone["name"] not in original:
            checks.failures.append(f"back from Blender: a bone {bone['name']!r} the source lacks")
            continue
        for channel, axes in (("location", "xyz"), ("rotation", "xyzw")):
            by_frame = {k["frame"]: k["value"] for k in bone[channel]}
            for key in original[bone["name"]][channel]:
                if key["frame"] not in by_frame:
                    continue
                a = [by_frame[key["frame"]][c] for c in axes]
                b = [key["value"][c] for c in axes]
                if channel == "rotation" and sum(x * y for x, y in zip(a, b)) < 0:
                    a = [-x for x in a]
                checks.close(f"back from Blender: {bone['name']} {channel} at frame {key['frame']}", a, b, 1e-4)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--animbin", required=True, help="the animbin command to run")
    parser.add_argument("--testdata", required=True, help="the folder of samples")
    args = parser.parse_args(argv)
    animbin = Animbin(os.path.abspath(args.animbin))
    testdata = os.path.abspath(args.testdata)
    print(f"Blender {bpy.app.version_string}, glTF importer of the bpy module")
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="animbin-blender-") as work:
        for name in sorted(os.listdir(testdata)):
            source = os.path.join(testdata, name)
            if not os.path.isfile(source):
                continue  # poses/ is the pose suite's, character/ check_character.py's
            glb = os.path.join(work, name + ".glb")
            try:
                animbin.run("convert", source, glb)
                check_sample(checks, animbin, source, glb)
            except Exception as e:  # a failed conversion or import is a failed check
                checks.failures.append(f"{name}: {e}")
        for extra in (check_joined_animations, check_textures, check_axes_and_scale, check_back_from_blender):
            try:
                extra(checks, animbin, testdata, work)
            except Exception as e:
                checks.failures.append(f"{extra.__name__}: {e}")
    for failure in checks.failures:
        print("FAIL", failure)
    print(f"{checks.passed} checks passed, {len(checks.failures)} failed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    sys.exit(main(argv))
