precision highp float;

// One particle's step as a screen-space quad (instanced): from the previous to the new position.
// Positions come straight from WASM memory as degrees relative to the view centre, so the small
// differences keep their precision at every zoom.
attribute vec2 a_from;     // previous position: relative lon, relative lat (degrees)
attribute vec2 a_to;       // new position
attribute vec2 a_corner;   // x: 0 at a_from, 1 at a_to; y: -1 or 1, the side of the line
uniform float u_worldPx;   // world width, device pixels
uniform vec2 u_canvas;     // drawing buffer, device pixels
uniform float u_centerLat; // degrees
uniform float u_centerY;   // mercY(u_centerLat), computed once on the CPU
uniform float u_taylor;    // 1: Mercator y by Taylor series around the centre (high zoom)
uniform vec3 u_merc;       // f', f''/2, f'''/6 of f(lat) = ln tan(pi/4 + lat/2) at the centre
uniform float u_width;     // line width, device pixels
varying float v_along;

const float PI = 3.141592653589793;

float mercY(float latDeg) {
  float s = sin(radians(clamp(latDeg, -85.0511, 85.0511)));
  return 0.5 - log((1.0 + s) / (1.0 - s)) / (4.0 * PI);
}

// Device pixels from the view centre, y downwards.
vec2 toScreen(vec2 rel) {
  float x = rel.x / 360.0 * u_worldPx;
  float y;
  if (u_taylor > 0.5) {
    float d = radians(rel.y);
    y = -(u_merc.x * d + u_merc.y * d * d + u_merc.z * d * d * d) / (2.0 * PI) * u_worldPx;
  } else {
    y = (mercY(u_centerLat + rel.y) - u_centerY) * u_worldPx;
  }
  return vec2(x, y);
}

void main() {
  vec2 a = toScreen(a_from);
  vec2 b = toScreen(a_to);
  vec2 d = b - a;
  float len = length(d);
  v_along = a_corner.x;
  // A respawned particle has no segment this step.
  if (len < 1e-3) {
    gl_Position = vec4(2.0, 2.0, 0.0, 1.0);
    return;
  }
  vec2 dir = d / len;
  vec2 normal = vec2(-dir.y, dir.x);
  float half_w = 0.5 * u_width;
  vec2 p = mix(a, b, a_corner.x) + dir * (2.0 * a_corner.x - 1.0) * half_w + normal * a_corner.y * half_w;
  gl_Position = vec4(2.0 * p.x / u_canvas.x, -2.0 * p.y / u_canvas.y, 0.0, 1.0);
}
