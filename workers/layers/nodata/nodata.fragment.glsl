precision mediump float;

uniform sampler2D u_label;
varying vec2 v_local;

void main() {
  gl_FragColor = texture2D(u_label, v_local);
}
