precision highp float;

// A base map tile's fills (workers/tiles/vectorTile.ts): positions 0..1 across the tile.
attribute vec2 a_pos;
attribute vec4 a_color;
uniform vec2 u_offset;   // tile corner minus view centre, normalised Mercator (computed in double on the CPU)
uniform float u_size;    // tile size, normalised Mercator
uniform vec2 u_scale;    // normalised Mercator -> clip
varying vec4 v_color;

void main() {
  vec2 clip = (u_offset + a_pos * u_size) * u_scale;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
  v_color = a_color;
}
