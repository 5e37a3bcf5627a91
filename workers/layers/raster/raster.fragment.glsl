#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

// Colour raster of one data tile: inverse Web Mercator per pixel, manual bilinear over the
// tile's 16-bit quantized nodes (packed two bytes per channel, RGBA = q0 hi, q0 lo, q1 hi, q1 lo),
// blend of two forecast steps, then the colour ramp. Class fields (u_nearest: precipitation type
// codes) take the nearest node's code and the nearer step's: codes are never blended (SPEC §3
// qualitative; workers/tiles/sample.ts answers the picker the same way).

uniform vec2 u_quadLon;    // west (unwrapped), span of the quad in degrees
uniform vec2 u_quadY;      // Mercator y of the quad's top and bottom
uniform vec4 u_tile;       // data tile west (same frame), north, lon span, lat span
uniform vec2 u_grid;       // nodes per row, rows
uniform sampler2D u_a;     // earlier step
uniform sampler2D u_b;     // later step
uniform vec4 u_qa;         // offset0, scale0, offset1, scale1 of step a
uniform vec4 u_qb;
uniform float u_t;         // blend 0 = a, 1 = b
uniform float u_vector;    // 1: value = length(channel0, channel1)
uniform float u_nearest;   // 1: nearest node, nearer step (class fields)
uniform sampler2D u_ramp;
uniform vec2 u_domain;     // value at the first and last ramp entry
uniform float u_rampSteps;
uniform float u_opacity;
uniform float u_globe;     // 1: the orthographic globe (common/globe.ts), 0: Web Mercator
uniform vec4 u_globeView;  // globe: centre longitude (degrees), sin and cos of the centre latitude, radius (device px)
uniform vec2 u_canvasHalf; // globe: half the drawing buffer, device px
uniform vec2 u_quadLat;    // globe: north and south of the quad's tile
varying vec2 v_local;

const float PI = 3.141592653589793;
const float NO_DATA = 65535.0;

vec2 quantized(sampler2D tex, vec2 node) {
  vec4 b = floor(texture2D(tex, (node + 0.5) / u_grid) * 255.0 + 0.5);
  return vec2(b.r * 256.0 + b.g, b.b * 256.0 + b.a);
}

// (channel0 * w, channel1 * w, w, 1) of one node, or zeros where the node holds no data.
vec4 node(sampler2D tex, vec4 q, vec2 at, float w) {
  vec2 raw = quantized(tex, at);
  float ok = raw.x == NO_DATA ? 0.0 : 1.0;
  return vec4((q.x + q.y * raw.x) * w, (q.z + q.w * raw.y) * w, w, 1.0) * ok;
}

// Bilinear interpolation skipping missing nodes: (channel0, channel1, valid weight, valid nodes).
vec4 sampleStep(sampler2D tex, vec4 q, vec2 cell, vec2 f) {
  vec4 s = node(tex, q, cell, (1.0 - f.x) * (1.0 - f.y))
         + node(tex, q, cell + vec2(1.0, 0.0), f.x * (1.0 - f.y))
         + node(tex, q, cell + vec2(0.0, 1.0), (1.0 - f.x) * f.y)
         + node(tex, q, cell + vec2(1.0, 1.0), f.x * f.y);
  return vec4(s.xy / max(s.z, 1e-6), s.zw);
}

void main() {
  float lon;
  float lat;
  float cover = 1.0;
  if (u_globe > 0.5) {
    // The globe: the pixel's point by the inverse orthographic projection (Snyder 1987, eqs. 20-14
    // to 20-16), kept where it lies in this quad's tile; the limb anti-aliased over one pixel.
    vec2 p = (gl_FragCoord.xy - u_canvasHalf) / u_globeView.w;
    float rho = length(p);
    cover = clamp((1.0 - rho) * u_globeView.w + 0.5, 0.0, 1.0);
    if (cover <= 0.0) discard;
    float cosC = sqrt(max(0.0, 1.0 - rho * rho));
    lat = degrees(asin(clamp(cosC * u_globeView.y + p.y * u_globeView.z, -1.0, 1.0)));
    float mid = u_quadLon.x + 0.5 * u_quadLon.y;
    float d = u_globeView.x + degrees(atan(p.x, cosC * u_globeView.z - p.y * u_globeView.y)) - mid;
    lon = mid + d - 360.0 * floor((d + 180.0) / 360.0);
    if (lon < u_quadLon.x || lon >= u_quadLon.x + u_quadLon.y || lat > u_quadLat.x || lat < u_quadLat.y) discard;
  } else {
    lon = u_quadLon.x + v_local.x * u_quadLon.y;
    float y = mix(u_quadY.x, u_quadY.y, v_local.y);
    lat = degrees(2.0 * atan(exp(PI * (1.0 - 2.0 * y))) - 0.5 * PI);
  }

  vec2 g = vec2((lon - u_tile.x) / u_tile.z, (u_tile.y - lat) / u_tile.w) * (u_grid - 1.0);
  vec2 cell = clamp(floor(g), vec2(0.0), u_grid - 2.0);
  vec2 f = clamp(g - cell, 0.0, 1.0);

  vec2 c;
  if (u_nearest > 0.5) {
    // Round half up, as the ingest's nearest regrid (engine/assembly/regrid.ts regridNearest).
    vec2 at = cell + step(0.5, f);
    vec4 n = u_t < 0.5 ? node(u_a, u_qa, at, 1.0) : node(u_b, u_qb, at, 1.0);
    if (n.w < 1.0) discard;
    c = n.xy;
  } else {
    vec4 a = sampleStep(u_a, u_qa, cell, f);
    vec4 b = u_t > 0.0 ? sampleStep(u_b, u_qb, cell, f) : a;
    // SPEC §5: fewer than 2 interpolated data points give no value.
    if (a.w < 2.0 || b.w < 2.0) discard;
    c = mix(a.xy, b.xy, u_t);
  }
  float value = u_vector > 0.5 ? length(c) : c.x;

  float x = clamp((value - u_domain.x) / (u_domain.y - u_domain.x), 0.0, 1.0);
  vec4 color = texture2D(u_ramp, vec2((x * (u_rampSteps - 1.0) + 0.5) / u_rampSteps, 0.5));
  float alpha = color.a * u_opacity * cover;
  gl_FragColor = vec4(color.rgb * alpha, alpha);
}
