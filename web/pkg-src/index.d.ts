/** animbin for browsers and Node (WebAssembly). */

/** Resolves once the WebAssembly module is loaded (the module awaits it on import). */
export const ready: Promise<void>;
/** animbin's version. */
export const version: string;

/** A file that does not read (with its format and byte offset), a conversion that cannot be
 * made, or bad options. */
export class AnimbinError extends Error {
  name: 'AnimbinError';
  /** The format whose reader or writer failed, when the error names one. */
  format: string | null;
  /** The byte offset in the input where the file stops being valid. */
  offset: number | null;
  /** True after a panic (a bug): the module must be loaded again. */
  fatal: boolean;
  /** The name of the file at fault, where `openFiles` was given several (or one). */
  file: string | null;
}

/** The summary `animbin info --json` prints: `format` and that format's fields. */
export interface Info {
  format: string;
  [field: string]: unknown;
}

/** A problem `validate` finds. */
export interface Problem {
  severity: 'error' | 'warning';
  /** What is wrong, without the place. */
  message: string;
  /** Where: "byte 12 (0xc)", "bone 3", "file". */
  location: string;
  /** The byte offset, when the place is one. */
  offset: number | null;
  /** The line `animbin validate` prints after the file name. */
  text: string;
}

/** A file given beside the document: an animation file or a texture. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView;
}

/** Conversion options, as `animbin convert`'s flags. */
export interface ConvertOptions {
  /** Frames per second for formats that store none (x8an: 30). */
  framerate?: number;
  /** Z-up output (`--z-up`). */
  zUp?: boolean;
  /** Unit scale (`--scale`). */
  scale?: number;
  /** Fail instead of losing data. */
  strict?: boolean;
  /** Write a glTF even when it would hold nothing. */
  allowEmpty?: boolean;
  /** Keep only the animation of this name. */
  animation?: string;
  /** The animation kind an SEAnim states: "absolute", "relative", "delta", "additive". */
  animType?: string;
  /** Whether an SEAnim loops. */
  looped?: boolean;
  /** "single" or "double". */
  precision?: string;
  /** Normalise rotations. */
  normalizeRotations?: boolean;
  /** Animation files joined by bone name. */
  anims?: NamedBytes[];
  /** Texture files, matched to the materials' map names by file name. */
  textures?: NamedBytes[];
}

/** A converted file. */
export interface Converted {
  bytes: Uint8Array;
  /** What the target cannot hold, one line per kind ("gltf cannot hold: 3 notes"). */
  lost: string[];
  /** `<stem>.<extension>`. */
  name: string;
}

/** An animation as the glb holds it. */
export interface AnimationInfo {
  name: string;
  framerate: number;
  frameCount: number;
  looping: boolean;
  notes: { frame: number; time: number; name: string }[];
}

/** A node of the scene graph. */
export interface GraphNode {
  name: string;
  /** The parent's index in `nodes`, or null for a root. */
  parent: number | null;
  /** "bone" (a skeleton's bone, a skin's joint) or "plain" (an empty, a mesh's node...). */
  kind: 'bone' | 'plain';
  /** The node's transform in the world at rest: 16 numbers, column by column. */
  world: number[];
}

/** The scene graph a document's glb holds, with world matrices from the library. */
export interface Graph {
  nodes: GraphNode[];
  /** The meshes' names. */
  meshes: string[];
  /** Meshes placed by a node (indices into `nodes` and `meshes`); a mesh no instance places
   * is in model space. */
  instances: { name?: string; node: number; meshes: number[] }[];
  cameras: {
    name?: string;
    node: number;
    projection:
      | { perspective: { yfov: number; aspect_ratio: number | null; znear: number; zfar: number | null } }
      | { orthographic: { xmag: number; ymag: number; znear: number; zfar: number } };
  }[];
  lights: { name?: string; node: number; kind: string | object; color: number[]; intensity: number; range?: number }[];
}

/** A file animbin read. */
export class Document {
  private constructor();
  readonly name: string | null;
  /** The format's short name ("seanim"). */
  readonly format: string;
  info(): Info;
  infoJson(): string;
  validate(): Problem[];
  dump(): string;
  targets(): string[];
  convert(target: string, options?: ConvertOptions): Converted;
  glb(options?: ConvertOptions): Converted;
  outputName(target: string): string;
  animations(options?: ConvertOptions): AnimationInfo[];
  graph(options?: ConvertOptions): Graph;
  free(): void;
}

export interface OpenOptions {
  /** The file's name: needed for x8an files (x8an*.bin). */
  name?: string;
  /** Force a format ("sf3"). */
  format?: string;
}

/** Reads a file of any supported format. */
export function open(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: OpenOptions): Document;
/** The summary of a file from its bytes. */
export function info(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: OpenOptions): Info;

/** What a front end needs to know of a format. */
export interface FormatInfo {
  name: string;
  label: string;
  extensions: string[];
  has_magic: boolean;
  holds: string[];
  stores_framerate: boolean;
  animation_kinds: string[];
  names_animations: boolean;
  names_meshes: boolean;
  several_animations: boolean;
  length_ends_on_last_key: boolean;
  chooses_precision: boolean;
  /** 3D tools read and write it themselves (glTF, FBX). */
  interchange: boolean;
  targets: string[];
}
/** Every format's metadata. */
export function formats(): FormatInfo[];
/** "image/png" or "image/jpeg" for a texture a glb can embed, else null. */
export function imageType(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): string | null;
/** Sorts files chosen together into the document, its animation files and its textures. */
export function openFiles(files: NamedBytes[]): { document: Document; anims: NamedBytes[]; textures: NamedBytes[] };
