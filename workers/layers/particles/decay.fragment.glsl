precision mediump float;

// In-place trail fade through blending (no texture read): with the reverse-subtract equation and
// the constant-alpha destination factor the framebuffer becomes dst * fade - u_decay. The small
// subtraction guarantees that faint trails reach zero, which 8-bit multiplication alone never does.
uniform float u_decay;

void main() {
  gl_FragColor = vec4(u_decay);
}
