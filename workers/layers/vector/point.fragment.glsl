precision mediump float;

varying vec4 v_color;   // straight alpha
varying vec2 v_corner;  // 1 at the disc's edge

// A disc with a dark rim, so light colours stay visible over light weather.
void main() {
  float r = length(v_corner);
  if (r > 1.0) discard;
  vec3 rgb = r > 0.72 ? vec3(0.1) : v_color.rgb;
  gl_FragColor = vec4(rgb * v_color.a, v_color.a);
}
