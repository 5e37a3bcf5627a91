// One mark (points.ts) on the globe: longitude and latitude projected orthographically
// (projection.glsl, prepended); the far side lies beyond the far plane and is cut.
attribute vec2 a_lonlat;
attribute vec4 a_color;
attribute float a_size;
uniform float u_pixelRatio;
varying vec4 v_color;

void main() {
  gl_Position = globeClip(globeXYZ(a_lonlat.x - u_center.x, a_lonlat.y));
  gl_PointSize = a_size * u_pixelRatio;
  v_color = a_color;
}
