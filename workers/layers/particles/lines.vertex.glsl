precision highp float;

// Fallback without ANGLE_instanced_arrays: each step as a 1-pixel GL line between two vertices.
attribute vec2 a_pos;      // relative lon, relative lat (degrees)
uniform float u_worldPx;
uniform vec2 u_canvas;
uniform float u_centerLat;
uniform float u_centerY;    // mercY(u_centerLat), computed once on the CPU
uniform float u_taylor;
uniform vec3 u_merc;
varying float v_along;

const float PI = 3.141592653589793;

float mercY(float latDeg) {
  float s = sin(radians(clamp(latDeg, -85.0511, 85.0511)));
  return 0.5 - log((1.0 + s) / (1.0 - s)) / (4.0 * PI);
}

void main() {
  float x = a_pos.x / 360.0 * u_worldPx;
  float y;
  if (u_taylor > 0.5) {
    float d = radians(a_pos.y);
    y = -(u_merc.x * d + u_merc.y * d * d + u_merc.z * d * d * d) / (2.0 * PI) * u_worldPx;
  } else {
    y = (mercY(u_centerLat + a_pos.y) - u_centerY) * u_worldPx;
  }
  v_along = 1.0;
  gl_Position = vec4(2.0 * x / u_canvas.x, -2.0 * y / u_canvas.y, 0.0, 1.0);
}
