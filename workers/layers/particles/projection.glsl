// Shared by the particle vertex shaders (particles.ts prepends it): a position given in degrees
// relative to the view centre, to device pixels from the centre, y downwards. Positions come
// straight from WASM memory as such differences, so they keep their precision at every zoom.
uniform float u_worldPx;   // world width, device pixels
uniform vec2 u_canvas;     // drawing buffer, device pixels
uniform float u_centerLat; // degrees
uniform float u_centerY;   // mercY(u_centerLat), computed once on the CPU
uniform float u_taylor;    // 1: Mercator y by Taylor series around the centre (high zoom)
uniform vec3 u_merc;       // f', f''/2, f'''/6 of f(lat) = ln tan(pi/4 + lat/2) at the centre
uniform float u_shiftLon;  // degrees: the copy of the world drawn (whole turns)

const float PI = 3.141592653589793;

float mercY(float latDeg) {
  float s = sin(radians(clamp(latDeg, -85.0511, 85.0511)));
  return 0.5 - log((1.0 + s) / (1.0 - s)) / (4.0 * PI);
}

vec2 toScreen(vec2 rel) {
  float x = (rel.x + u_shiftLon) / 360.0 * u_worldPx;
  float y;
  if (u_taylor > 0.5) {
    float d = radians(rel.y);
    y = -(u_merc.x * d + u_merc.y * d * d + u_merc.z * d * d * d) / (2.0 * PI) * u_worldPx;
  } else {
    y = (mercY(u_centerLat + rel.y) - u_centerY) * u_worldPx;
  }
  return vec2(x, y);
}
