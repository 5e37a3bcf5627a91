// One particle's step on the globe as a screen-space quad (instanced), as particles.vertex.glsl on
// the flat map. A step with either end on the far side is not drawn (common/globe.ts particleSegment).
// (precision and projection.glsl are prepended by globe.ts)
attribute vec2 a_from;     // previous position: longitude and latitude relative to the centre (degrees)
attribute vec2 a_to;
attribute vec2 a_corner;   // x: 0 at a_from, 1 at a_to; y: -1 or 1, the side of the line
uniform float u_width;     // line width, device pixels
uniform float u_radius;    // globe radius, device pixels
uniform vec2 u_canvas;     // drawing buffer, device pixels
uniform float u_centerLat; // degrees
varying float v_along;
varying float v_facing;

vec3 toScreen(vec2 rel) {
  vec3 p = globeXYZ(rel.x, u_centerLat + rel.y);
  return vec3(p.x * u_radius, -p.y * u_radius, p.z);
}

void main() {
  vec3 a = toScreen(a_from);
  vec3 b = toScreen(a_to);
  vec2 d = b.xy - a.xy;
  float len = length(d);
  v_along = a_corner.x;
  v_facing = smoothstep(0.0, 0.35, min(a.z, b.z));
  if (len < 1e-3 || a.z < 0.0 || b.z < 0.0) {
    gl_Position = vec4(2.0, 2.0, 0.0, 1.0);
    return;
  }
  vec2 dir = d / len;
  vec2 normal = vec2(-dir.y, dir.x);
  float half_w = 0.5 * u_width;
  vec2 p = mix(a.xy, b.xy, a_corner.x) + dir * (2.0 * a_corner.x - 1.0) * half_w + normal * a_corner.y * half_w;
  gl_Position = vec4(2.0 * p.x / u_canvas.x, -2.0 * p.y / u_canvas.y, 0.0, 1.0);
}
