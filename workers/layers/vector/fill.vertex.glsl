// A vertex of a filled area's triangle (project() prepended), drawn into the union mask.
attribute vec2 a_pos;

void main() {
  gl_Position = project(a_pos);
}
