precision highp float;

// One mark (points.ts) on the flat map: its place in normalised Mercator, its colour (straight
// alpha) and its size in CSS px.
attribute vec2 a_merc;
attribute vec4 a_color;
attribute float a_size;
uniform vec2 u_center;     // view centre, normalised Mercator
uniform vec2 u_scale;      // world size in clip units per axis
uniform float u_copy;      // which copy of the world: x offset in worlds
uniform float u_pixelRatio;
varying vec4 v_color;

void main() {
  vec2 p = (a_merc + vec2(u_copy, 0.0) - u_center) * u_scale;
  gl_Position = vec4(p.x, -p.y, 0.0, 1.0);
  gl_PointSize = a_size * u_pixelRatio;
  v_color = a_color;
}
