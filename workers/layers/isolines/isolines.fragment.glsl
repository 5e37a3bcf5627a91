precision mediump float;

uniform vec4 u_color;  // premultiplied

void main() {
  gl_FragColor = u_color;
}
