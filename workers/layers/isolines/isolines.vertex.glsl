precision highp float;

// One corner of a line segment's quad (isolines.ts): the segment's ends in normalised Mercator
// relative to the layer's origin, which end this corner is at (0 or 1) and which side (-1 or 1).
attribute vec2 a_from;
attribute vec2 a_to;
attribute vec2 a_corner;
uniform vec2 u_center;   // view centre relative to the origin, normalised Mercator
uniform vec2 u_scale;    // world size in clip units per axis
uniform vec2 u_canvas;   // drawing buffer, device px
uniform float u_copy;    // which copy of the world: x offset in worlds
uniform float u_width;   // line width, device px

void main() {
  vec2 a = (a_from + vec2(u_copy, 0.0) - u_center) * u_scale;
  vec2 b = (a_to + vec2(u_copy, 0.0) - u_center) * u_scale;
  a.y = -a.y;
  b.y = -b.y;
  vec2 d = (b - a) * u_canvas;
  float len = length(d);
  vec2 dir = len > 0.0 ? d / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  vec2 p = mix(a, b, a_corner.x);
  // Half the width on each side, and half a pixel more along the line: the joins have no gaps.
  vec2 offset = (normal * a_corner.y * 0.5 * u_width + dir * (a_corner.x * 2.0 - 1.0) * 0.5) / u_canvas * 2.0;
  gl_Position = vec4(p + offset, 0.0, 1.0);
}
