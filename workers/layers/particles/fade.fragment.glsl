precision mediump float;

// Trail fade with pan compensation: the previous trail is read where its content was before the
// view moved, so trails stay on the ground instead of smearing across the screen.
uniform sampler2D u_prev;
uniform vec2 u_shift;      // uv offset of the content since the last frame
uniform float u_fade;      // multiplier per frame
varying vec2 v_uv;

void main() {
  vec2 uv = v_uv - u_shift;
  vec4 c = texture2D(u_prev, uv);
  float inside = step(0.0, uv.x) * step(0.0, uv.y) * step(uv.x, 1.0) * step(uv.y, 1.0);
  // floor() guarantees progress every frame: 8-bit rounding alone would leave faint ghosts forever.
  gl_FragColor = floor(c * 255.0 * u_fade) / 255.0 * inside;
}
