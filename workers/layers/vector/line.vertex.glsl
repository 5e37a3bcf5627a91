// One corner of a line segment's quad (vector.ts): the segment's ends (project() is prepended:
// flat map or globe), which end (0 or 1) and side (-1 or 1), widened on screen by u_width.
attribute vec2 a_from;
attribute vec2 a_to;
attribute vec2 a_corner;
attribute vec4 a_color;  // straight alpha, 0-1
uniform vec2 u_canvas;   // drawing buffer, device px
uniform float u_width;   // line width, device px
varying vec4 v_color;

void main() {
  vec4 a = project(a_from);
  vec4 b = project(a_to);
  vec2 d = (b.xy - a.xy) * u_canvas;
  float len = length(d);
  vec2 dir = len > 0.0 ? d / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  vec4 p = mix(a, b, a_corner.x);
  p.xy += (normal * a_corner.y * 0.5 * u_width + dir * (a_corner.x * 2.0 - 1.0) * 0.5) / u_canvas * 2.0;
  gl_Position = p;
  v_color = a_color;
}
