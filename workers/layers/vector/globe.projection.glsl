// The globe: positions in normalised Mercator relative to u_origin, back to lon/lat, projected
// orthographically (../globe/projection.glsl, prepended); the far side falls beyond the far plane.
uniform vec2 u_origin;   // normalised Mercator of the shapes' origin

const float PI = 3.141592653589793;

vec4 project(vec2 merc) {
  vec2 m = merc + u_origin;
  float lon = m.x * 360.0 - 180.0;
  float lat = degrees(2.0 * atan(exp(PI * (1.0 - 2.0 * m.y))) - 0.5 * PI);
  return globeClip(globeXYZ(lon - u_center.x, lat));
}
