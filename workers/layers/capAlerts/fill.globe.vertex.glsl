// One vertex of a filled polygon's triangle on the globe: normalised Mercator relative to
// u_origin, back to lon/lat, projected orthographically (projection.glsl, prepended). The far side
// is cut at the limb's plane by the depth range.
attribute vec2 a_position;
attribute vec4 a_colour;
uniform vec2 u_origin;   // normalised Mercator of the polygons' origin
varying vec4 v_colour;

const float PI = 3.141592653589793;

void main() {
  vec2 m = a_position + u_origin;
  float lon = m.x * 360.0 - 180.0;
  float lat = degrees(2.0 * atan(exp(PI * (1.0 - 2.0 * m.y))) - 0.5 * PI);
  v_colour = a_colour;
  gl_Position = globeClip(globeXYZ(lon - u_center.x, lat));
}
