precision mediump float;

varying vec4 v_color;  // straight alpha

void main() {
  gl_FragColor = vec4(v_color.rgb * v_color.a, v_color.a);
}
