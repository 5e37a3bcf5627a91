precision mediump float;

uniform sampler2D u_image;   // premultiplied when decoded
varying vec2 v_uv;

void main() {
  gl_FragColor = texture2D(u_image, v_uv);
}
