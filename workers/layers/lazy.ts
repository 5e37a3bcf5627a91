/**
 * A GPU layer made when it is first needed rather than with the GPU. regl compiles and links a
 * command's shaders when the command is made, so every layer made up front is paid for in the
 * worker's start, before the first frame: on SwiftShader the globe, isolines, vector shapes, point
 * sets and tiled base map took 190-350 ms of the 430-740 ms that making the GPU took, on a page that
 * draws none of them.
 */
export class Lazy<T> {
  #value: T | null = null;

  constructor(private readonly make: () => T) {}

  /** The layer, made now if it was not. */
  get(): T {
    return (this.#value ??= this.make());
  }

  /** The layer if it was made, else null: nothing to draw or to clear. */
  get made(): T | null {
    return this.#value;
  }
}
