// Without instancing (software GL): each step as a 1-pixel GL line between two vertices.
// (precision and projection.glsl are prepended by particles.ts)
attribute vec2 a_pos;      // relative lon, relative lat (degrees)
varying float v_along;

void main() {
  vec2 p = toScreen(a_pos);
  v_along = 1.0;
  gl_Position = vec4(2.0 * p.x / u_canvas.x, -2.0 * p.y / u_canvas.y, 0.0, 1.0);
}
