precision mediump float;

// The frame: the static layer (basemap + raster, redrawn only on change) under the particle trails.
uniform sampler2D u_static;
uniform sampler2D u_trail;
uniform vec3 u_particleColor;
varying vec2 v_uv;

void main() {
  vec3 s = texture2D(u_static, v_uv).rgb;
  float a = texture2D(u_trail, v_uv).a;
  gl_FragColor = vec4(mix(s, u_particleColor, a), 1.0);
}
