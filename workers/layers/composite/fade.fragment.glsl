precision mediump float;

// Trails fade by blending the static layer over the last frame: with alpha 1 - fade the screen
// keeps `fade` of its difference from the static layer each frame. 8-bit rounding alone would
// leave faint trails for ever (round(0.92 * 5) = 5), so the source is dithered by half a step of
// the result: rounding becomes unbiased and every trail decays to the static layer.
uniform sampler2D u_static;
uniform float u_alpha;     // 1 - fade
uniform float u_frame;     // changes the dither every frame
varying vec2 v_uv;

// Interleaved gradient noise (Jimenez, "Next Generation Post Processing in Call of Duty: Advanced
// Warfare", SIGGRAPH 2014): no trigonometry, which software renderers pay dearly for per pixel.
float noise(vec2 p) {
  return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715))));
}

void main() {
  vec3 s = texture2D(u_static, v_uv).rgb;
  float dither = (noise(gl_FragCoord.xy + 5.588238 * u_frame) - 0.5) / (255.0 * u_alpha);
  gl_FragColor = vec4(s + dither, u_alpha);
}
