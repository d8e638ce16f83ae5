import { Loader, LoadingManager } from 'three';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';
import type { ConvertOptions, Info, NamedBytes } from './index.js';

/** What AnimbinLoader gives: three's GLTF result and what animbin said of the file. */
export interface AnimbinGLTF extends GLTF {
  animbin: { format: string; info: Info; lost: string[] };
}

/** Any file animbin reads, with animation files and textures beside it, to a three.js
 * scene and its AnimationClips (through a glb and three's GLTFLoader). */
export class AnimbinLoader extends Loader<AnimbinGLTF, string | string[]> {
  constructor(manager?: LoadingManager);
  options: ConvertOptions;
  setOptions(options: ConvertOptions): this;
  load(
    urls: string | string[],
    onLoad: (gltf: AnimbinGLTF) => void,
    onProgress?: (event: ProgressEvent) => void,
    onError?: (error: unknown) => void,
  ): void;
  parse(data: Uint8Array | ArrayBuffer, name: string | undefined, onLoad: (gltf: AnimbinGLTF) => void, onError?: (error: unknown) => void): void;
  parseFiles(files: NamedBytes[]): Promise<AnimbinGLTF>;
}
