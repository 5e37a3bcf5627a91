precision highp float;

// A base map tile's lines as strips: each vertex is pushed along the segment's normal by half the
// line width, in screen pixels, so lines keep their width at every zoom.
attribute vec2 a_pos;
attribute vec2 a_normal;
attribute float a_width;   // CSS px
attribute vec4 a_color;
uniform vec2 u_offset;
uniform float u_size;
uniform vec2 u_scale;
uniform vec2 u_pixel;      // clip units per CSS pixel, per axis
varying vec4 v_color;

void main() {
  vec2 clip = (u_offset + a_pos * u_size) * u_scale;
  vec2 pushed = clip + a_normal * a_width * 0.5 * u_pixel;
  gl_Position = vec4(pushed.x, -pushed.y, 0.0, 1.0);
  v_color = a_color;
}
