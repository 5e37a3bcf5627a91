// The basemap's meshes (quantized normalised Web Mercator, common/basemap.ts) on the globe.
// (precision and projection.glsl are prepended by globe.ts)
attribute vec2 a_pos;
uniform vec2 u_xRange;     // x0, x1 of the quantization
uniform vec2 u_yRange;     // y0, y1 of the quantization

const float PI = 3.141592653589793;

void main() {
  float lon = mix(u_xRange.x, u_xRange.y, a_pos.x) * 360.0 - 180.0;
  float y = mix(u_yRange.x, u_yRange.y, a_pos.y);
  float lat = degrees(2.0 * atan(exp(PI * (1.0 - 2.0 * y))) - 0.5 * PI);
  gl_Position = globeClip(globeXYZ(lon - u_center.x, lat));
}
