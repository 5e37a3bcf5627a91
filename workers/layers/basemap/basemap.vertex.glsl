precision highp float;

// Quantized normalised Web Mercator (common/basemap.ts); x runs past 0..1 across the antimeridian.
attribute vec2 a_pos;
uniform vec2 u_xRange;   // x0, x1 of the quantization
uniform vec2 u_yRange;   // y0, y1 of the quantization (0, 1 for a whole-world map)
uniform vec2 u_center;   // view centre, normalised Mercator
uniform vec2 u_scale;    // world size in clip units (2 * worldPx / canvasPx), per axis
uniform float u_copy;    // which copy of the world: x offset in worlds

void main() {
  vec2 merc = vec2(mix(u_xRange.x, u_xRange.y, a_pos.x) + u_copy, mix(u_yRange.x, u_yRange.y, a_pos.y));
  vec2 clip = (merc - u_center) * u_scale;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
}
