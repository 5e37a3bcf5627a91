precision highp float;

// Graticule lines in normalised Mercator, generated in basemap.ts.
attribute vec2 a_pos;
uniform vec2 u_center;
uniform vec2 u_scale;
uniform float u_copy;

void main() {
  vec2 clip = (a_pos + vec2(u_copy, 0.0) - u_center) * u_scale;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
}
