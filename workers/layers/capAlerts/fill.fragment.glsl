precision mediump float;

varying vec4 v_colour;  // premultiplied

void main() {
  gl_FragColor = v_colour;
}
