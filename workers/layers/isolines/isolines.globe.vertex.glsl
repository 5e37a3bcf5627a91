// One corner of an isoline segment's quad on the globe (isolines.ts drawGlobe): the segment's ends
// in normalised Mercator relative to u_origin, back to lon/lat, projected orthographically
// (projection.glsl, prepended), then widened on screen like the flat map's lines. The far side is
// cut at the limb's plane by the depth range.
attribute vec2 a_from;
attribute vec2 a_to;
attribute vec2 a_corner;
uniform vec2 u_origin;   // normalised Mercator of the lines' origin
uniform vec2 u_canvas;   // drawing buffer, device px
uniform float u_width;   // line width, device px

const float PI = 3.141592653589793;

vec4 project(vec2 merc) {
  vec2 m = merc + u_origin;
  float lon = m.x * 360.0 - 180.0;
  float lat = degrees(2.0 * atan(exp(PI * (1.0 - 2.0 * m.y))) - 0.5 * PI);
  return globeClip(globeXYZ(lon - u_center.x, lat));
}

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
}
