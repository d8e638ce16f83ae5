"""The character of testdata/character/ as Blender shows it: a figure that walks and waves.

The whole samples folder, and testdata/character/ on its own, convert to glb with no option
(exit 0, nothing failed, the character losing nothing but the digits FBX's Euler angles give).
Then each of the character's files is converted to glb with --z-up (the figure is Z-up, as
the game formats are) as a user would: Cast, DMF and FBX alone, the SEModel alone and with
each of its animation files (--anim). Each glb, and the shipped character.glb, is imported
through Blender's own glTF importer (bpy.ops.import_scene.gltf) and checked:

- one armature of 24 bones, two meshes of 612 vertices, the two 64 x 64 textures loaded with
  pixels, every triangle facing the way its normals say;
- at rest: the figure stands on the ground, 1.83 m tall;
- the walk, frame by frame: the lower sole stays on the ground (to 2 cm between keys) and no
  vertex goes below it or flies off, the head stays above the hips, the feet pass each other
  (each is in front in turn, by more than 20 cm) and each is the lower one in turn, and the
  loop's last frame is its first;
- the wave: the right hand rises above the head and comes down again;
- every file poses every bone as character.glb does, on every frame of each animation.

Run with the Python that has the `bpy` module (pip install 'bpy==4.5.*' in a Python 3.11
virtual environment), or inside Blender (blender -b -P check_character.py -- ARGS):

    python tests/blender/check_character.py --animbin target/debug/animbin --testdata testdata

Exit status 0 when every check holds, 1 otherwise (each failure is printed).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import bpy
from checks import Checks  # noqa: E402  (the Blender suites' shared checks, beside this file)

FPS = 30
WALK_FRAMES = 30
WAVE_FRAMES = 60
BONES = 24
VERTICES = 612
# How far the lower sole may be from the ground: on a key it is on it, and between keys (two
# frames apart) the joints' turns are interpolated, not the sole's height.
GROUND = 0.02
HEIGHT = 1.83
# How far a vertex may be from where the figure is built to put it: the keys are f32s, and
# the glTF importer's conversion of each bone to Blender's axes rounds too.
CLOSE = 1e-3


def run(animbin, *args):
    """`animbin ARGS`: its exit code, stdout and stderr."""
    done = subprocess.run([animbin, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def import_glb(path):
    """A fresh Blender scene at the animations' rate with the file imported: the armature
    and the meshes (not the importer's bone display shape)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    result = bpy.ops.import_scene.gltf(filepath=str(path))
    if result != {"FINISHED"}:
        raise RuntimeError(f"the importer returned {result}")
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    shapes = {b.custom_shape for a in armatures for b in a.pose.bones if b.custom_shape is not None}
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and o not in shapes]
    return armatures, meshes


def play(armature, action):
    """Makes `action` the armature's (its first slot, in Blenders that have slots), from the
    rest pose: a bone the action does not key stays at rest, not where the last action left
    it (a file may leave out a channel that holds its bone's rest, as FBX does)."""
    for bone in armature.pose.bones:
        bone.location = (0.0, 0.0, 0.0)
        bone.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
        bone.scale = (1.0, 1.0, 1.0)
    if armature.animation_data is None:
        armature.animation_data_create()
    armature.animation_data.action = action
    if hasattr(action, "slots") and len(action.slots):
        armature.animation_data.action_slot = action.slots[0]


def action_named(word):
    """The imported action whose name holds `word` (`walk`, `wave`)."""
    found = [a for a in bpy.data.actions if word in a.name]
    return found[0] if len(found) == 1 else None


def pose_at(frame, armature, meshes):
    """At `frame`: every bone's head in world space, by name, and every vertex of the
    deformed meshes in world space."""
    scene = bpy.context.scene
    scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    heads = {b.name: tuple(armature.matrix_world @ b.head) for b in armature.pose.bones}
    vertices = []
    for obj in meshes:
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        vertices.extend(tuple(evaluated.matrix_world @ v.co) for v in mesh.vertices)
        evaluated.to_mesh_clear()
    return heads, vertices


def check_model(checks, name, armature, meshes):
    """Bones, meshes, textures and the triangles' facing; the figure at rest."""
    checks.equal(f"{name}: bones", len(armature.data.bones), BONES)
    # SEModel names no mesh (the importer numbers them) and DMF names them by material.
    checks.equal(f"{name}: meshes", len(meshes), 2)
    checks.equal(f"{name}: vertices", sum(len(o.data.vertices) for o in meshes), VERTICES)
    images = sorted((i.name, tuple(i.size), i.has_data) for i in bpy.data.images)
    checks.equal(
        f"{name}: textures with pixels",
        images,
        [("character_clothes.png", (64, 64), True), ("character_skin.png", (64, 64), True)],
    )
    for obj in meshes:
        mesh = obj.data
        backwards = 0
        for polygon in mesh.polygons:
            corners = [mesh.corner_normals[i].vector for i in polygon.loop_indices]
            mean = sum(corners, corners[0] * 0.0) / len(corners)
            backwards += mean.dot(polygon.normal) <= 0.5
        checks.equal(f"{name}: {mesh.name}: triangles facing against their normals", backwards, 0)
    _, vertices = pose_at(0, armature, meshes)
    low = min(v[2] for v in vertices)
    high = max(v[2] for v in vertices)
    checks.true(f"{name}: at rest the soles are on the ground ({low:.4f} m)", abs(low) <= 0.01)
    checks.true(f"{name}: at rest the figure is {HEIGHT} m tall ({high:.4f} m)", abs(high - HEIGHT) <= 0.01)


def check_walk(checks, name, armature, meshes):
    """The walk, frame by frame; the bones' heads on every frame, for comparing files."""
    heads = []
    lower = set()
    front = []
    for frame in range(WALK_FRAMES + 1):
        bones, vertices = pose_at(frame, armature, meshes)
        heads.append(bones)
        low = min(v[2] for v in vertices)
        checks.true(f"{name}: walk frame {frame}: the lower sole is on the ground ({low:.4f} m)", abs(low) <= GROUND)
        wide = max(max(abs(v[0]) for v in vertices), max(abs(v[1]) for v in vertices))
        high = max(v[2] for v in vertices)
        checks.true(f"{name}: walk frame {frame}: no vertex flies off ({wide:.3f} m out, {high:.3f} m up)", wide < 0.7 and high < 1.9)
        checks.true(
            f"{name}: walk frame {frame}: the head is above the hips",
            bones["head"][2] - bones["hips"][2] > 0.5,
        )
        left, right = bones["foot_l"], bones["foot_r"]
        lower.add("left" if left[2] < right[2] else "right")
        # The figure faces -Y: the foot in front has the smaller y.
        front.append(right[1] - left[1])
    checks.true(f"{name}: walk: the left foot is in front by more than 20 cm ({max(front):.3f} m)", max(front) > 0.2)
    checks.true(f"{name}: walk: the right foot is in front by more than 20 cm ({-min(front):.3f} m)", min(front) < -0.2)
    checks.equal(f"{name}: walk: each foot is the lower one in turn", sorted(lower), ["left", "right"])
    first, last = heads[0], heads[-1]
    apart = max(abs(a - b) for n in first for a, b in zip(first[n], last[n]))
    checks.true(f"{name}: walk: the loop's last frame is its first ({apart:.6f} m apart)", apart <= CLOSE)
    return heads


def check_wave(checks, name, armature, meshes):
    """The wave: the right hand above the head mid-wave, at its side at either end."""
    heads = []
    for frame in range(WAVE_FRAMES + 1):
        bones, _ = pose_at(frame, armature, meshes)
        heads.append(bones)
    for frame in (0, WAVE_FRAMES):
        bones = heads[frame]
        checks.true(f"{name}: wave frame {frame}: the right hand is by the hips", bones["hand_r"][2] < bones["hips"][2] + 0.1)
    for frame in (20, 30, 40):
        bones = heads[frame]
        checks.true(f"{name}: wave frame {frame}: the right hand is above the head", bones["hand_r"][2] > bones["head"][2])
    return heads


def same_poses(checks, name, seen, reference, what):
    """`seen` poses every bone where `reference` does, on every frame."""
    if reference is None or seen is None:
        return
    worst = 0.0
    for frame, (a, b) in enumerate(zip(seen, reference)):
        for bone in b:
            worst = max([worst] + [abs(x - y) for x, y in zip(a.get(bone, (1e9,) * 3), b[bone])])
    checks.true(f"{name}: {what}: every bone where character.glb puts it (at most {worst:.6f} m off)", worst <= CLOSE)


def check_file(checks, name, glb, animations, reference):
    """Imports `glb` and checks the figure and `animations` ("walk", "wave"); the bones'
    heads of each animation, by name."""
    armatures, meshes = import_glb(glb)
    if not checks.equal(f"{name}: armatures", len(armatures), 1):
        return {}
    armature = armatures[0]
    check_model(checks, name, armature, meshes)
    poses = {}
    for word, check in (("walk", check_walk), ("wave", check_wave)):
        if word not in animations:
            continue
        action = action_named(word)
        if not checks.true(f"{name}: one action named for the {word} ({[a.name for a in bpy.data.actions]})", action is not None):
            continue
        play(armature, action)
        poses[word] = check(checks, name, armature, meshes)
        same_poses(checks, name, poses[word], reference.get(word), word)
    return poses


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--animbin", required=True, help="the animbin command")
    parser.add_argument("--testdata", required=True, help="the folder of samples")
    args = parser.parse_args(argv)
    animbin = os.path.abspath(args.animbin)
    testdata = os.path.abspath(args.testdata)
    character = os.path.join(testdata, "character")
    print(f"Blender {bpy.app.version_string}, glTF importer of the bpy module")
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="animbin-character-") as work:
        code, out, err = run(animbin, "convert", "--to", "glb", "--out", os.path.join(work, "samples"), testdata)
        checks.equal(f"the samples folder converts to glb with no option: exit code ({err.strip()})", code, 0)
        checks.true(f"the samples folder: nothing failed ({out.strip()})", ", failed 0," in out)
        # The folder as it is (the game formats' files come out Z-up, as they are; a glb
        # converted with --z-up stands up, but --z-up refuses the folder's own glb).
        folder = os.path.join(work, "character")
        code, out, err = run(animbin, "convert", "--to", "glb", "--out", folder, character)
        checks.equal(f"testdata/character converts to glb: exit code ({err.strip()})", code, 0)
        checks.true(f"testdata/character: nothing failed ({out.strip()})", ", failed 0," in out)
        # FBX keeps Euler angles, which come back as quaternions beyond f32.
        lost = [line for line in err.splitlines() if "character.fbx: gltf cannot hold: key values beyond single precision" not in line]
        checks.equal("testdata/character: nothing lost but FBX's digits", lost, [])

        def source(name):
            return os.path.join(character, name)

        def convert(name, *args):
            glb = os.path.join(work, name.replace(" ", "") + ".glb")
            code, _, err = run(animbin, "convert", "--z-up", *args, glb)
            checks.equal(f"{name} to glb with --z-up: exit code ({err.strip()})", code, 0)
            return glb

        both = ("walk", "wave")
        files = {"character.glb": (source("character.glb"), both)}
        for name in ("character.cast", "character.dmf", "character.fbx"):
            files[name] = (convert(name, source(name)), both)
        files["character.semodel"] = (convert("character.semodel", source("character.semodel")), ())
        for anim in ("character_walk.seanim", "character_wave.seanim", "character_walk.animx", "character_walk.animj"):
            name = f"character.semodel + {anim}"
            glb = convert(name, source("character.semodel"), "--anim", source(anim))
            files[name] = (glb, ("wave",) if "wave" in anim else ("walk",))
        reference = {}
        for name, (glb, animations) in files.items():
            try:
                poses = check_file(checks, name, glb, animations, reference)
                if name == "character.glb":
                    reference = poses
                    checks.equal("character.glb: both animations checked", sorted(poses), ["walk", "wave"])
            except Exception as e:  # a failed import is a failed check
                checks.failures.append(f"{name}: {e}")
    for failure in checks.failures:
        print("FAIL", failure)
    print(f"{checks.passed} checks passed, {len(checks.failures)} failed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    sys.exit(main(argv))
