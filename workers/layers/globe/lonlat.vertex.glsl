// Lines given in longitude and latitude (the globe's graticule, already cut into short arcs).
// (precision and projection.glsl are prepended by globe.ts)
attribute vec2 a_pos;

void main() {
  gl_Position = globeClip(globeXYZ(a_pos.x - u_center.x, a_pos.y));
}
