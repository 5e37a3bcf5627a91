#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

// The globe's disc (the sea where nothing else is drawn), its limb anti-aliased over one pixel.
uniform vec3 u_disc;       // centre x, y (framebuffer pixels), radius (device px)
uniform vec4 u_color;

void main() {
  float rho = length(gl_FragCoord.xy - u_disc.xy);
  float cover = clamp(u_disc.z - rho + 0.5, 0.0, 1.0);
  gl_FragColor = vec4(u_color.rgb * u_color.a, u_color.a) * cover;
}
