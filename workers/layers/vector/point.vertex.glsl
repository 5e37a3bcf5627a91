// One corner of a point's square (vector.ts): the point (project() prepended), the corner (+-1,
// +-1), its radius in device px; the fragment shader rounds it.
attribute vec2 a_center;
attribute vec2 a_corner;
attribute vec4 a_color;
uniform vec2 u_canvas;
uniform float u_radius;
varying vec4 v_color;
varying vec2 v_corner;

void main() {
  vec4 p = project(a_center);
  p.xy += a_corner * (u_radius + 1.0) / u_canvas * 2.0;
  gl_Position = p;
  v_color = a_color;
  v_corner = a_corner * (u_radius + 1.0) / u_radius;
}
