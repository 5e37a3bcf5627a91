precision mediump float;

// The "No data!" label repeats every u_cell device pixels over the failed tile, whatever the
// tile's size on screen, so it reads at every zoom.
uniform sampler2D u_label;
uniform float u_cell;

void main() {
  gl_FragColor = texture2D(u_label, fract(gl_FragCoord.xy / u_cell));
}
