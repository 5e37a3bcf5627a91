precision mediump float;

// The union of a filled area's triangles (the mask), painted once in u_color: overlapping parts
// (the cone's circles) do not darken.
uniform sampler2D u_mask;
uniform vec2 u_canvas;
uniform vec4 u_color;  // premultiplied

void main() {
  float inside = texture2D(u_mask, gl_FragCoord.xy / u_canvas).a;
  gl_FragColor = u_color * inside;
}
