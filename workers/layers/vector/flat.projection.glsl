// Flat map (Web Mercator): positions in normalised Mercator relative to the shapes' origin.
uniform vec2 u_center;   // view centre relative to the origin, normalised Mercator
uniform vec2 u_scale;    // world size in clip units per axis
uniform float u_copy;    // which copy of the world: x offset in worlds

vec4 project(vec2 merc) {
  vec2 p = (merc + vec2(u_copy, 0.0) - u_center) * u_scale;
  return vec4(p.x, -p.y, 0.0, 1.0);
}
