// One particle's step as a screen-space quad (instanced): from the previous to the new position.
// (precision and projection.glsl are prepended by particles.ts)
attribute vec2 a_from;     // previous position: relative lon, relative lat (degrees)
attribute vec2 a_to;       // new position
attribute vec2 a_corner;   // x: 0 at a_from, 1 at a_to; y: -1 or 1, the side of the line
uniform float u_width;     // line width, device pixels
varying float v_along;

void main() {
  vec2 a = toScreen(a_from);
  vec2 b = toScreen(a_to);
  vec2 d = b - a;
  float len = length(d);
  v_along = a_corner.x;
  // A respawned particle has no segment this step.
  if (len < 1e-3) {
    gl_Position = vec4(2.0, 2.0, 0.0, 1.0);
    return;
  }
  vec2 dir = d / len;
  vec2 normal = vec2(-dir.y, dir.x);
  float half_w = 0.5 * u_width;
  vec2 p = mix(a, b, a_corner.x) + dir * (2.0 * a_corner.x - 1.0) * half_w + normal * a_corner.y * half_w;
  gl_Position = vec4(2.0 * p.x / u_canvas.x, -2.0 * p.y / u_canvas.y, 0.0, 1.0);
}
