precision highp float;

// A unit quad stretched over one tile's screen rectangle (computed on the CPU in double precision).
attribute vec2 a_corner;
uniform vec4 u_rect;     // clip-space x0, y0 (top-left), x1, y1 (bottom-right)
varying vec2 v_local;    // 0..1 across the quad, y downwards

void main() {
  v_local = a_corner;
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, a_corner), 0.0, 1.0);
}
