precision mediump float;

// Copies a texture to the screen, displaced by u_shift (uv units): the static layer as it is, or
// the last frame moved along with a pan so that trails stay on the ground.
uniform sampler2D u_source;
uniform vec2 u_shift;
varying vec2 v_uv;

void main() {
  gl_FragColor = texture2D(u_source, v_uv - u_shift);
}
