// Without instancing (software GL): each step as a 1-pixel GL line; the far side is cut by the
// depth range (projection.glsl globeClip).
// (precision and projection.glsl are prepended by globe.ts)
attribute vec2 a_pos;      // relative longitude, relative latitude (degrees)
uniform float u_centerLat;
varying float v_along;
varying float v_facing;

void main() {
  v_along = 1.0;
  vec3 p = globeXYZ(a_pos.x, u_centerLat + a_pos.y);
  v_facing = smoothstep(0.0, 0.35, p.z);
  gl_Position = globeClip(p);
}
