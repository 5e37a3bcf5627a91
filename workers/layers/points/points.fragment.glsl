precision mediump float;

// The mark's shape in its point sprite: a plus (lightning) or a disc, each with a dark rim so it
// reads over any colour layer.
uniform float u_shape;  // 0: disc, 1: plus
varying vec4 v_color;

void main() {
  vec2 c = abs(gl_PointCoord - 0.5) * 2.0;  // 0 at the centre, 1 at the sprite's edge
  float inner;
  float outer;
  if (u_shape > 0.5) {
    float arm = min(c.x, c.y);
    inner = step(arm, 0.2) * step(max(c.x, c.y), 0.8);
    outer = step(arm, 0.42);
  } else {
    float r = length(c);
    inner = step(r, 0.62);
    outer = step(r, 1.0);
  }
  if (outer < 0.5) discard;
  vec3 rgb = mix(vec3(0.1, 0.05, 0.0), v_color.rgb, inner);
  float a = v_color.a * (inner > 0.5 ? 1.0 : 0.8);
  gl_FragColor = vec4(rgb * a, a);
}
