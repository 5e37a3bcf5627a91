precision highp float;

// One vertex of a filled polygon's triangle (polygonMesh.ts): normalised Mercator relative to the
// layer's origin, and its premultiplied colour.
attribute vec2 a_position;
attribute vec4 a_colour;
uniform vec2 u_center;   // view centre relative to the origin, normalised Mercator
uniform vec2 u_scale;    // world size in clip units per axis
uniform float u_copy;    // which copy of the world: x offset in worlds
varying vec4 v_colour;

void main() {
  vec2 p = (a_position + vec2(u_copy, 0.0) - u_center) * u_scale;
  v_colour = a_colour;
  gl_Position = vec4(p.x, -p.y, 0.0, 1.0);
}
