// AnimbinLoader: any file animbin reads (with animation files and textures beside it) to a
// three.js scene with its AnimationClips, through a glb that animbin writes and three's own
// GLTFLoader reads. The pose math is the library's (the same glb `animbin convert` writes).
import { FileLoader, Loader } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { open, openFiles } from './index.js';

export class AnimbinLoader extends Loader {
  constructor(manager) {
    super(manager);
    /** Options given to every conversion (framerate, zUp, scale...). */
    this.options = {};
    this.gltfLoader = new GLTFLoader(manager);
  }

  /** Sets the conversion options (see `ConvertOptions`). */
  setOptions(options) {
    this.options = { ...options };
    return this;
  }

  /** Loads one URL, or several (a model, its animations, its textures), as three.js loaders do. */
  load(urls, onLoad, onProgress, onError) {
    const list = Array.isArray(urls) ? urls : [urls];
    const fileLoader = new FileLoader(this.manager);
    fileLoader.setPath(this.path);
    fileLoader.setResponseType('arraybuffer');
    fileLoader.setRequestHeader(this.requestHeader);
    fileLoader.setWithCredentials(this.withCredentials);
    Promise.all(list.map((url) => fileLoader.loadAsync(url, onProgress).then((data) => ({
      name: decodeURIComponent(url.split(/[?#]/)[0].split('/').pop()),
      bytes: new Uint8Array(data),
    }))))
      .then((files) => this.parseFiles(files))
      .then(onLoad)
      .catch((e) => {
        if (onError) onError(e);
        else console.error(e);
        this.manager.itemError(list[0]);
      });
  }

  /** Parses one file's bytes (`name` is needed for x8an files). */
  parse(data, name, onLoad, onError) {
    this.parseFiles([{ name: name ?? '', bytes: data }]).then(onLoad, onError);
  }

  /** Parses files chosen together: resolves to three's GLTF result (`scene`,
   * `animations`...) plus `document` (format and info) and `lost` (what the glb cannot hold). */
  async parseFiles(files) {
    const { document, anims, textures } = openFiles(files);
    try {
      const glb = document.glb({ ...this.options, anims, textures });
      // The glb has a buffer of its own (the bytes out of WebAssembly): read in place.
      const { buffer, byteOffset, byteLength } = glb.bytes;
      const whole = byteOffset === 0 && byteLength === buffer.byteLength;
      const gltf = await this.gltfLoader.parseAsync(whole ? buffer : buffer.slice(byteOffset, byteOffset + byteLength), '');
      gltf.animbin = { format: document.format, info: document.info(), lost: glb.lost };
      return gltf;
    } finally {
      document.free();
    }
  }
}

export { open };
