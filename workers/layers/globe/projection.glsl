// The orthographic globe (common/globe.ts), shared by the globe's vertex shaders (globe.ts
// prepends it). Positions come as longitude differences from the centre and latitudes, degrees.
uniform vec3 u_center;      // centre longitude (degrees), sin and cos of the centre latitude
uniform vec2 u_clipRadius;  // the globe's radius in clip units, per axis

// The unit sphere in the view's frame: x east, y north on screen, z towards the viewer (cos of
// the angular distance from the centre; Snyder 1987, eqs. 20-3, 20-4, 5-3).
vec3 globeXYZ(float dlonDeg, float latDeg) {
  float dl = radians(dlonDeg);
  float phi = radians(latDeg);
  float cp = cos(phi);
  return vec3(cp * sin(dl), u_center.z * sin(phi) - u_center.y * cp * cos(dl), u_center.y * sin(phi) + u_center.z * cp * cos(dl));
}

// Clip position. Depth is 1 - 1.99 z: the far side (z < 0) lies beyond the far plane, so GL cuts
// lines and triangles exactly at the limb's plane (z = 0), and nothing of the near side is lost.
vec4 globeClip(vec3 p) {
  return vec4(p.xy * u_clipRadius, 1.0 - 1.99 * p.z, 1.0);
}
