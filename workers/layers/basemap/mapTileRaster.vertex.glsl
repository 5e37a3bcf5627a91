precision highp float;

// A raster base map tile (or the part of a parent tile standing in for it): a quad over the tile.
attribute vec2 a_pos;      // 0..1 across the tile
uniform vec2 u_offset;
uniform float u_size;
uniform vec2 u_scale;
uniform vec4 u_uv;         // the image's part drawn: u0, v0, u1, v1
varying vec2 v_uv;

void main() {
  vec2 clip = (u_offset + a_pos * u_size) * u_scale;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
  v_uv = mix(u_uv.xy, u_uv.zw, a_pos);
}
