precision mediump float;

// particles.fragment.glsl of the flat map, faded towards the limb: seen edge-on there, the trails
// of an even spread over the sphere crowd into a bright rim.
uniform float u_alpha;
varying float v_along;
varying float v_facing;    // 0 on the limb .. 1 from cos 0.35 of the angle from the centre inwards

void main() {
  float a = u_alpha * (0.55 + 0.45 * v_along) * v_facing;
  gl_FragColor = vec4(a, a, a, a);
}
