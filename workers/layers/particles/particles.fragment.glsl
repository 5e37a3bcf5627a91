precision mediump float;

uniform float u_alpha;
varying float v_along;

void main() {
  // Brighter at the head of the step, so the trail reads in the direction of the wind.
  float a = u_alpha * (0.55 + 0.45 * v_along);
  gl_FragColor = vec4(a, a, a, a);
}
