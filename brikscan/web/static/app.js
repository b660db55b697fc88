// brikscan battle table: an instanced WebGL2 viewer with ID-buffer picking, over the JSON API.
// Geometry comes once as binary (distinct parts + per-element transforms); everything else is per-element state
// in small textures (tint, hidden, offset), so layers, roles and blasts never re-send geometry.
"use strict";

const $ = (id) => document.getElementById(id);
const T0 = performance.now();
// the roles' colours come with the model (/api/model role_colours): one palette with the cards and pictures
const roleColours = () => ({ ...(S.model.role_colours || {}), none: [255, 255, 255] });
const NAMED = { red: [220, 40, 40], blue: [40, 90, 220], green: [40, 170, 60], yellow: [235, 200, 30],
  black: [40, 40, 40], white: [250, 250, 250], orange: [250, 140, 20], purple: [140, 60, 200], "no side": [150, 150, 150] };
const SECTION_COLOURS = { head: [250, 220, 40], torso: [230, 60, 60], legs: [50, 110, 230] };
const DISTINCT = [[31, 119, 180], [255, 127, 14], [44, 160, 44], [214, 39, 40], [148, 103, 189], [140, 86, 75],
  [227, 119, 194], [127, 127, 127], [188, 189, 34], [23, 190, 207], [0, 80, 160], [180, 90, 0]];
const api = {
  async get(path) { const r = await fetch(path); if (!r.ok) throw new Error((await r.json()).error); return r; },
  async post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}) });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    return j;
  },
};
const S = {  // page state; window.brikscan exposes it to tests
  ready: false, model: null, geo: null, mode: "inspect", hover: -1, selected: [], layer: "colours",
  blasts: [], viewer: null, from: null, lastResult: null, timings: {}, errors: [],
};
window.brikscan = S;

function status(text, isError) {
  $("status").textContent = text || "";
  $("status").style.color = isError ? "#f88" : "#fc6";
  if (isError) S.errors.push(text);
}

// ------------------------------------------------------------------------------------------------ math
const M4 = {
  mul(a, b) { const o = new Float32Array(16);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) { let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + j] * b[i * 4 + k]; o[i * 4 + j] = s; } return o; },
  perspective(fovy, aspect, near, far) { const f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
    return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0]); },
  lookAt(e, c, up) { const z = norm(sub(e, c)), x = norm(cross(up, z)), y = cross(z, x);
    return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
      -dot(x, e), -dot(y, e), -dot(z, e), 1]); },
  invert(m) { // general 4x4 inverse (column-major)
    const inv = new Float32Array(16), a = m;
    inv[0] = a[5]*a[10]*a[15]-a[5]*a[11]*a[14]-a[9]*a[6]*a[15]+a[9]*a[7]*a[14]+a[13]*a[6]*a[11]-a[13]*a[7]*a[10];
    inv[4] = -a[4]*a[10]*a[15]+a[4]*a[11]*a[14]+a[8]*a[6]*a[15]-a[8]*a[7]*a[14]-a[12]*a[6]*a[11]+a[12]*a[7]*a[10];
    inv[8] = a[4]*a[9]*a[15]-a[4]*a[11]*a[13]-a[8]*a[5]*a[15]+a[8]*a[7]*a[13]+a[12]*a[5]*a[11]-a[12]*a[7]*a[9];
    inv[12] = -a[4]*a[9]*a[14]+a[4]*a[10]*a[13]+a[8]*a[5]*a[14]-a[8]*a[6]*a[13]-a[12]*a[5]*a[10]+a[12]*a[6]*a[9];
    inv[1] = -a[1]*a[10]*a[15]+a[1]*a[11]*a[14]+a[9]*a[2]*a[15]-a[9]*a[3]*a[14]-a[13]*a[2]*a[11]+a[13]*a[3]*a[10];
    inv[5] = a[0]*a[10]*a[15]-a[0]*a[11]*a[14]-a[8]*a[2]*a[15]+a[8]*a[3]*a[14]+a[12]*a[2]*a[11]-a[12]*a[3]*a[10];
    inv[9] = -a[0]*a[9]*a[15]+a[0]*a[11]*a[13]+a[8]*a[1]*a[15]-a[8]*a[3]*a[13]-a[12]*a[1]*a[11]+a[12]*a[3]*a[9];
    inv[13] = a[0]*a[9]*a[14]-a[0]*a[10]*a[13]-a[8]*a[1]*a[14]+a[8]*a[2]*a[13]+a[12]*a[1]*a[10]-a[12]*a[2]*a[9];
    inv[2] = a[1]*a[6]*a[15]-a[1]*a[7]*a[14]-a[5]*a[2]*a[15]+a[5]*a[3]*a[14]+a[13]*a[2]*a[7]-a[13]*a[3]*a[6];
    inv[6] = -a[0]*a[6]*a[15]+a[0]*a[7]*a[14]+a[4]*a[2]*a[15]-a[4]*a[3]*a[14]-a[12]*a[2]*a[7]+a[12]*a[3]*a[6];
    inv[10] = a[0]*a[5]*a[15]-a[0]*a[7]*a[13]-a[4]*a[1]*a[15]+a[4]*a[3]*a[13]+a[12]*a[1]*a[7]-a[12]*a[3]*a[5];
    inv[14] = -a[0]*a[5]*a[14]+a[0]*a[6]*a[13]+a[4]*a[1]*a[14]-a[4]*a[2]*a[13]-a[12]*a[1]*a[6]+a[12]*a[2]*a[5];
    inv[3] = -a[1]*a[6]*a[11]+a[1]*a[7]*a[10]+a[5]*a[2]*a[11]-a[5]*a[3]*a[10]-a[9]*a[2]*a[7]+a[9]*a[3]*a[6];
    inv[7] = a[0]*a[6]*a[11]-a[0]*a[7]*a[10]-a[4]*a[2]*a[11]+a[4]*a[3]*a[10]+a[8]*a[2]*a[7]-a[8]*a[3]*a[6];
    inv[11] = -a[0]*a[5]*a[11]+a[0]*a[7]*a[9]+a[4]*a[1]*a[11]-a[4]*a[3]*a[9]-a[8]*a[1]*a[7]+a[8]*a[3]*a[5];
    inv[15] = a[0]*a[5]*a[10]-a[0]*a[6]*a[9]-a[4]*a[1]*a[10]+a[4]*a[2]*a[9]+a[8]*a[1]*a[6]-a[8]*a[2]*a[5];
    let det = a[0]*inv[0]+a[1]*inv[4]+a[2]*inv[8]+a[3]*inv[12]; det = 1 / det;
    for (let i = 0; i < 16; i++) inv[i] *= det; return inv; },
};
function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
function scale(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function norm(a) { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; }

// ------------------------------------------------------------------------------------------------ GL
const canvas = $("gl");
const gl = canvas.getContext("webgl2", { antialias: false, preserveDrawingBuffer: true });
if (!gl) status("this browser has no WebGL2", true);
const hasFloatRT = gl && !!gl.getExtension("EXT_color_buffer_float");

const VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in float vcol;
layout(location=2) in vec4 m0; layout(location=3) in vec4 m1; layout(location=4) in vec4 m2;
layout(location=5) in float icol; layout(location=6) in uint iel;
uniform mat4 viewProj; uniform sampler2D palette; uniform sampler2D state; uniform highp sampler2D offs;
uniform int stateW;
out vec3 vWorld; out vec3 vColour; flat out uint vId;
void main() {
  vec4 p = vec4(pos, 1.0);
  vec3 w = vec3(dot(m0, p), dot(m1, p), dot(m2, p));
  float ci = vcol > 65534.5 ? icol : vcol;
  vec3 c = texelFetch(palette, ivec2(int(ci), 0), 0).rgb;
  vId = iel;
  if (iel != 0xFFFFFFFFu) {
    ivec2 t = ivec2(int(iel) % stateW, int(iel) / stateW);
    vec4 s = texelFetch(state, t, 0);
    if (s.a > 0.999) { gl_Position = vec4(0.0, 0.0, -2.0, 1.0); return; }
    c = mix(c, s.rgb, s.a);
    w += texelFetch(offs, t, 0).xyz;
  }
  vWorld = w; vColour = c;
  gl_Position = viewProj * vec4(w, 1.0);
}`;
const FS = `#version 300 es
precision highp float;
in vec3 vWorld; in vec3 vColour; flat in uint vId;
uniform vec3 eye; uniform vec3 light;
layout(location=0) out vec4 outColour; layout(location=1) out vec4 outPick;
void main() {
  vec3 n = normalize(cross(dFdx(vWorld), dFdy(vWorld)));
  vec3 v = normalize(eye - vWorld);
  if (dot(n, v) < 0.0) n = -n;
  float d = 0.38 + 0.42 * max(dot(n, light), 0.0) + 0.28 * max(dot(n, v), 0.0);
  outColour = vec4(min(vColour * d, 1.0), 1.0);
  outPick = vec4(vWorld, vId == 0xFFFFFFFFu ? -1.0 : float(vId) + 1.0);
}`;
const LINE_VS = `#version 300 es
layout(location=0) in vec3 pos; layout(location=1) in vec4 col;
uniform mat4 viewProj; out vec4 vCol;
void main() { vCol = col; gl_Position = viewProj * vec4(pos, 1.0); }`;
const LINE_FS = `#version 300 es
precision highp float; in vec4 vCol;
layout(location=0) out vec4 outColour; layout(location=1) out vec4 outPick;
void main() { outColour = vCol; outPick = vec4(0.0); }`;
const QUAD_VS = `#version 300 es
out vec2 uv; void main() { vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  uv = p; gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }`;
const QUAD_FS = `#version 300 es
precision highp float; in vec2 uv;
uniform sampler2D colourTex; uniform highp sampler2D pickTex; uniform vec3 eye; uniform float hover;
uniform float picked; out vec4 outColour;
float idAt(ivec2 p) { return texelFetch(pickTex, p, 0).w; }
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 c = texelFetch(colourTex, p, 0);
  vec4 k = texelFetch(pickTex, p, 0);
  if (k.w == 0.0 && c.a == 0.0) {  // background
    outColour = vec4(mix(vec3(0.93, 0.94, 0.96), vec3(0.78, 0.80, 0.84), uv.y), 1.0); return; }
  float id = k.w;
  float dist = length(k.xyz - eye);
  float edge = 0.0;
  ivec2 o[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
  for (int i = 0; i < 4; i++) {
    vec4 q = texelFetch(pickTex, p + o[i], 0);
    if (id > 0.0 && q.w != id) edge = 1.0;
    if (q.w != 0.0 && id != 0.0 && abs(length(q.xyz - eye) - dist) > 0.012 * dist) edge = 1.0;
  }
  vec3 rgb = c.rgb;
  if (id > 0.0 && abs(id - 1.0 - hover) < 0.5) rgb = mix(rgb, vec3(1.0, 0.95, 0.3), 0.45);
  bool isPicked = id > 0.0 && abs(id - 1.0 - picked) < 0.5;
  if (isPicked) rgb = mix(rgb, vec3(1.0, 0.75, 0.2), 0.2);
  vec3 edgeColour = isPicked ? vec3(1.0, 0.55, 0.0) : rgb * 0.25;
  outColour = vec4(mix(rgb, edgeColour, edge * (isPicked ? 1.0 : 0.85)), 1.0);
}`;

function program(vs, fs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  const u = {}; const n = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < n; i++) { const a = gl.getActiveUniform(p, i); u[a.name] = gl.getUniformLocation(p, a.name); }
  return { p, u };
}

const R = { progMesh: null, progLine: null, progQuad: null, fbo: null, w: 0, h: 0, parts: [], stateW: 1024,
  stateData: null, offsData: null, stateTex: null, offsTex: null, lines: [], dirty: true, frames: 0 };

function parseGeometry(buf) {
  const dv = new DataView(buf);
  const magic = String.fromCharCode(...new Uint8Array(buf, 0, 4));
  if (magic !== "BKG2") throw new Error("bad geometry stream");
  const hlen = dv.getUint32(4, true);
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 8, hlen)));
  const blob = (k, T) => { const [off, n] = head.blobs[k]; return new T(buf, off, n / T.BYTES_PER_ELEMENT); };
  return { head, positions: blob("positions", Float32Array), vcolour: blob("vcolour", Uint16Array),
    instM: blob("inst_matrix", Float32Array), instC: blob("inst_colour", Uint16Array),
    instE: blob("inst_element", Uint32Array), indices: blob("indices", Uint32Array) };
}

function tex(internal, format, type, w, h, data, filter) {
  const t = gl.createTexture(); gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texImage2D(gl.TEXTURE_2D, 0, internal, w, h, 0, format, type, data);
  const f = filter || gl.NEAREST;
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, f); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, f);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}

function upload(g) {
  R.progMesh = program(VS, FS); R.progLine = program(LINE_VS, LINE_FS); R.progQuad = program(QUAD_VS, QUAD_FS);
  const vao = gl.createVertexArray(); gl.bindVertexArray(vao);
  const pb = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, pb); gl.bufferData(gl.ARRAY_BUFFER, g.positions, gl.STATIC_DRAW);
  const cb = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, cb); gl.bufferData(gl.ARRAY_BUFFER, g.vcolour, gl.STATIC_DRAW);
  R.instM = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, R.instM); gl.bufferData(gl.ARRAY_BUFFER, g.instM, gl.STATIC_DRAW);
  R.instC = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, R.instC); gl.bufferData(gl.ARRAY_BUFFER, g.instC, gl.STATIC_DRAW);
  R.instE = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, R.instE); gl.bufferData(gl.ARRAY_BUFFER, g.instE, gl.STATIC_DRAW);
  const ib = gl.createBuffer(); gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib); gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, g.indices, gl.STATIC_DRAW);
  R.vao = vao; R.pb = pb; R.cb = cb; R.ib = ib; R.instMData = g.instM;
  R.parts = g.head.parts;
  const pal = new Uint8Array(Math.max(1, g.head.palette.length) * 4);
  g.head.palette.forEach((c, i) => pal.set([c[0], c[1], c[2], 255], i * 4));
  R.palette = tex(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, Math.max(1, g.head.palette.length), 1, pal);
  const n = Math.max(1, g.head.elements || 0);
  R.stateH = Math.ceil(n / R.stateW);
  R.stateData = new Uint8Array(R.stateW * R.stateH * 4);
  R.offsData = new Float32Array(R.stateW * R.stateH * 4);
  R.stateTex = tex(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, R.stateW, R.stateH, R.stateData);
  R.shownState = R.stateData.slice(); R.shownOffs = R.offsData.slice();
  R.offsTex = tex(gl.RGBA32F, gl.RGBA, gl.FLOAT, R.stateW, R.stateH, R.offsData);
  R.lineBuf = gl.createBuffer();
  R.lineVao = gl.createVertexArray();
  gl.bindVertexArray(R.lineVao); gl.bindBuffer(gl.ARRAY_BUFFER, R.lineBuf);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 28, 0);
  gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 28, 12);
  gl.bindVertexArray(null);
}

function bindPart(part) {
  gl.bindVertexArray(R.vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, R.pb); gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.ARRAY_BUFFER, R.cb); gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 1, gl.UNSIGNED_SHORT, false, 0, 0);
  const fi = part.first_instance;
  gl.bindBuffer(gl.ARRAY_BUFFER, R.instM);
  for (let r = 0; r < 3; r++) { gl.enableVertexAttribArray(2 + r);
    gl.vertexAttribPointer(2 + r, 4, gl.FLOAT, false, 48, fi * 48 + r * 16); gl.vertexAttribDivisor(2 + r, 1); }
  gl.bindBuffer(gl.ARRAY_BUFFER, R.instC); gl.enableVertexAttribArray(5);
  gl.vertexAttribPointer(5, 1, gl.UNSIGNED_SHORT, false, 0, fi * 2); gl.vertexAttribDivisor(5, 1);
  gl.bindBuffer(gl.ARRAY_BUFFER, R.instE); gl.enableVertexAttribArray(6);
  gl.vertexAttribIPointer(6, 1, gl.UNSIGNED_INT, 0, fi * 4); gl.vertexAttribDivisor(6, 1);
}

function ensureTargets() {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (w === R.w && h === R.h && R.fbo) return;
  canvas.width = w; canvas.height = h; R.w = w; R.h = h;
  if (R.fbo) { gl.deleteFramebuffer(R.fbo); gl.deleteTexture(R.colourTex); gl.deleteTexture(R.pickTex); gl.deleteRenderbuffer(R.depth); }
  R.colourTex = tex(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, w, h, null);
  R.pickTex = tex(gl.RGBA32F, gl.RGBA, gl.FLOAT, w, h, null);
  R.depth = gl.createRenderbuffer(); gl.bindRenderbuffer(gl.RENDERBUFFER, R.depth);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, w, h);
  R.fbo = gl.createFramebuffer(); gl.bindFramebuffer(gl.FRAMEBUFFER, R.fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, R.colourTex, 0);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, R.pickTex, 0);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, R.depth);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) status("picking buffer not supported", true);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  R.dirty = true;
}

// ------------------------------------------------------------------------------------------------ camera
const C = { target: [0, 0, 0], dist: 500, theta: 0.7, phi: 0.5, fov: 0.7, radius: 100 };
function frameAll() {
  const [lo, hi] = S.model ? S.model.bbox_ldu : S.geo.bbox_ldu;
  C.target = scale(add(lo, hi), 0.5);
  C.radius = Math.max(10, 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  C.dist = C.radius / Math.sin(C.fov / 2) * 1.05;
  C.theta = 0.7; C.phi = 0.45;
}
function eyePos() {  // LDraw: -Y is up
  const c = Math.cos(C.phi);
  return add(C.target, scale([c * Math.sin(C.theta), -Math.sin(C.phi), c * Math.cos(C.theta)], C.dist));
}
function viewProj() {
  const e = eyePos();
  const near = Math.max(0.5, C.dist - C.radius * 2.5), far = C.dist + C.radius * 2.5;
  const proj = M4.perspective(C.fov, R.w / R.h, Math.max(near, C.dist / 2000), far);
  return M4.mul(proj, M4.lookAt(e, C.target, [0, -1, 0]));
}

// ------------------------------------------------------------------------------------------------ drawing
function draw() {
  if (!R.parts.length && !R.lines.length) return;
  ensureTargets();
  const vp = viewProj(), e = eyePos();
  R.vp = vp; R.eye = e;
  if (R.dirty) {
    gl.bindFramebuffer(gl.FRAMEBUFFER, R.fbo);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
    gl.viewport(0, 0, R.w, R.h);
    gl.clearBufferfv(gl.COLOR, 0, [0, 0, 0, 0]); gl.clearBufferfv(gl.COLOR, 1, [0, 0, 0, 0]);
    gl.clearBufferfi(gl.DEPTH_STENCIL, 0, 1, 0);
    gl.enable(gl.DEPTH_TEST); gl.disable(gl.CULL_FACE);
    const P = R.progMesh; gl.useProgram(P.p);
    gl.uniformMatrix4fv(P.u.viewProj, false, vp); gl.uniform3fv(P.u.eye, e);
    gl.uniform3fv(P.u.light, norm([0.35, -1.0, 0.55])); gl.uniform1i(P.u.stateW, R.stateW);
    gl.activeTexture(gl.TEXTURE0); gl.bindTexture(gl.TEXTURE_2D, R.palette); gl.uniform1i(P.u.palette, 0);
    gl.activeTexture(gl.TEXTURE1); gl.bindTexture(gl.TEXTURE_2D, R.stateTex); gl.uniform1i(P.u.state, 1);
    gl.activeTexture(gl.TEXTURE2); gl.bindTexture(gl.TEXTURE_2D, R.offsTex); gl.uniform1i(P.u.offs, 2);
    for (const part of R.parts) {
      bindPart(part);
      gl.drawElementsInstanced(gl.TRIANGLES, part.indices, gl.UNSIGNED_INT, part.first_index * 4, part.instances);
    }
    gl.bindVertexArray(null);
    drawLines(vp);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    R.dirty = false;
    if (S.ready) startPickReadback();  // (the first frame's copy is started once it is on screen)
  }
  composite();
  R.frames++;
  placeLabels();
}

function composite() {
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, R.w, R.h); gl.disable(gl.DEPTH_TEST);
  const Q = R.progQuad; gl.useProgram(Q.p);
  gl.activeTexture(gl.TEXTURE0); gl.bindTexture(gl.TEXTURE_2D, R.colourTex); gl.uniform1i(Q.u.colourTex, 0);
  gl.activeTexture(gl.TEXTURE1); gl.bindTexture(gl.TEXTURE_2D, R.pickTex); gl.uniform1i(Q.u.pickTex, 1);
  gl.uniform3fv(Q.u.eye, R.eye); gl.uniform1f(Q.u.hover, S.hover); gl.uniform1f(Q.u.picked, S.selected.length === 1 ? S.selected[0] : -1);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
}

function drawLines(vp) {
  const segs = R.lines;
  if (!segs.length) return;
  const depthOn = segs.filter((s) => s.depth), depthOff = segs.filter((s) => !s.depth);
  const P = R.progLine; gl.useProgram(P.p); gl.uniformMatrix4fv(P.u.viewProj, false, vp);
  gl.bindVertexArray(R.lineVao); gl.bindBuffer(gl.ARRAY_BUFFER, R.lineBuf);
  for (const [list, depth] of [[depthOn, true], [depthOff, false]]) {
    if (!list.length) continue;
    const data = new Float32Array(list.length * 14);
    list.forEach((s, i) => data.set([...s.a, ...s.c, ...s.b, ...s.c], i * 14));
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    if (depth) gl.enable(gl.DEPTH_TEST); else gl.disable(gl.DEPTH_TEST);
    gl.drawArrays(gl.LINES, 0, list.length * 2);
  }
  gl.bindVertexArray(null); gl.enable(gl.DEPTH_TEST);
}

let pending = false;
function redraw(full) { if (full !== false) R.dirty = true; if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); } }

// After each geometry pass the whole pick attachment is copied to the CPU without waiting (a pixel-pack
// buffer and a fence): picks and hovers are then array lookups that never wait for a frame being drawn.
R.pickGen = 0; R.pickCache = null;
function startPickReadback() {
  R.pickCache = null;
  const gen = ++R.pickGen, w = R.w, h = R.h, bytes = w * h * 16;
  if (!R.pbo) R.pbo = gl.createBuffer();
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, R.pbo);
  if (R.pboBytes !== bytes) { gl.bufferData(gl.PIXEL_PACK_BUFFER, bytes, gl.STREAM_READ); R.pboBytes = bytes; }
  gl.bindFramebuffer(gl.FRAMEBUFFER, R.fbo); gl.readBuffer(gl.COLOR_ATTACHMENT1);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, 0);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null); gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  if (R.fence) gl.deleteSync(R.fence);
  const fence = R.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0); gl.flush();
  const poll = () => {
    if (gen !== R.pickGen) return;  // a newer frame: its own readback takes over
    const st = gl.clientWaitSync(fence, 0, 0);
    if (st === gl.TIMEOUT_EXPIRED) { setTimeout(poll, 5); return; }
    if (st === gl.WAIT_FAILED || w !== R.w || h !== R.h) return;
    const data = new Float32Array(w * h * 4);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, R.pbo); gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, data);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    R.pickCache = { data, w, h };
  };
  setTimeout(poll, 5);
}
// pixel (CSS px, from the canvas' top-left) -> {element, point} from the ID buffer
function pickAt(x, y) {
  if (!R.fbo) return { element: -1, point: null };
  const dpr = R.w / canvas.clientWidth;
  const px = Math.floor(x * dpr), py = R.h - 1 - Math.floor(y * dpr);
  if (px < 0 || py < 0 || px >= R.w || py >= R.h) return { element: -1, point: null };
  let out;
  if (R.pickCache && R.pickCache.w === R.w && R.pickCache.h === R.h) {
    const o = (py * R.w + px) * 4; out = R.pickCache.data.subarray(o, o + 4);
  } else {  // the frame's copy is not there yet: read the one pixel (waits for the frame)
    gl.bindFramebuffer(gl.FRAMEBUFFER, R.fbo); gl.readBuffer(gl.COLOR_ATTACHMENT1);
    out = new Float32Array(4);
    gl.readPixels(px, py, 1, 1, gl.RGBA, gl.FLOAT, out);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
  const id = Math.round(out[3]) - 1;
  return { element: id >= 0 ? id : -1, point: out[3] !== 0 ? [out[0], out[1], out[2]] : null };
}
// the camera ray through a pixel, for tests that check picks against brikscan's own ray caster
function rayAt(x, y) {
  const inv = M4.invert(R.vp);
  const nx = 2 * x / canvas.clientWidth - 1, ny = 1 - 2 * y / canvas.clientHeight;
  const un = (z) => { const v = [nx, ny, z, 1]; const o = [0, 0, 0, 0];
    for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) o[i] += inv[k * 4 + i] * v[k];
    return [o[0] / o[3], o[1] / o[3], o[2] / o[3]]; };
  const a = un(-1), b = un(1);
  return { origin: a, dir: norm(sub(b, a)) };
}
function project(p) {  // world -> CSS px, or null behind the camera
  const m = R.vp; const v = [p[0], p[1], p[2], 1]; const o = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) o[i] += m[k * 4 + i] * v[k];
  if (o[3] <= 0) return null;
  return [(o[0] / o[3] * 0.5 + 0.5) * canvas.clientWidth, (0.5 - o[1] / o[3] * 0.5) * canvas.clientHeight];
}
S.pickAt = pickAt; S.rayAt = rayAt; S.project = project; S.pickCached = () => !!R.pickCache;
S.stateOf = (i) => Array.from(R.stateData.slice(i * 4, i * 4 + 4));
S.screenOf = (i) => { const e = S.model.elements[i]; return project(scale(add(e.bbox_ldu[0], e.bbox_ldu[1]), 0.5)); };

// ------------------------------------------------------------------------------------------------ state
function setState(i, rgb, a) { const o = i * 4; R.stateData[o] = rgb[0]; R.stateData[o + 1] = rgb[1]; R.stateData[o + 2] = rgb[2]; R.stateData[o + 3] = a; }
function sameArray(a, b) { if (!b || a.length !== b.length) return false; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }
function pushState() {
  // unchanged tints and offsets (a layer switch that changes nothing, the start): no geometry pass
  if (sameArray(R.stateData, R.shownState) && sameArray(R.offsData, R.shownOffs)) { redraw(false); return; }
  R.shownState = R.stateData.slice(); R.shownOffs = R.offsData.slice();
  gl.bindTexture(gl.TEXTURE_2D, R.stateTex);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, R.stateW, R.stateH, gl.RGBA, gl.UNSIGNED_BYTE, R.stateData);
  gl.bindTexture(gl.TEXTURE_2D, R.offsTex);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, R.stateW, R.stateH, gl.RGBA, gl.FLOAT, R.offsData);
  redraw();
}
const rgbCss = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
function legend(entries, extra) {
  $("legend").innerHTML = entries.map(([name, c, n]) =>
    `<span class="legend-row" data-key="${esc(name)}"><span class="swatch" style="background:${rgbCss(c)}"></span>${esc(name)}${n !== undefined ? ` (${n})` : ""}</span>`).join("") + (extra || "");
}
function esc(s) { return String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

// Layer tints; a blast or a sight result paints over them until it is cleared
function applyLayer() {
  const els = S.model.elements, soft = $("soft").checked ? 150 : 235;
  R.stateData.fill(0); R.offsData.fill(0);
  const counts = {};
  if (S.layer === "roles") {
    const rc = roleColours();
    els.forEach((e, i) => { const r = e.role || "none"; counts[r] = (counts[r] || 0) + 1;
      setState(i, rc[r] || [255, 255, 255], r === "none" ? 0 : soft); });
    legend(Object.keys(rc).filter((r) => counts[r]).map((r) => [r, rc[r], counts[r]]));
  } else if (S.layer === "creations") {
    const names = [...new Set(els.map((e) => e.creation).filter(Boolean))];
    els.forEach((e, i) => { if (e.creation) setState(i, DISTINCT[names.indexOf(e.creation) % DISTINCT.length], soft); });
    legend(names.slice(0, 40).map((n, k) => [n, DISTINCT[k % DISTINCT.length], els.filter((e) => e.creation === n).length]));
  } else if (S.layer === "sections") {
    els.forEach((e, i) => { if (e.section) setState(i, SECTION_COLOURS[e.section] || [200, 200, 200], soft);
      else setState(i, [235, 235, 235], 200); });
    legend(Object.entries(SECTION_COLOURS).map(([k, c]) => [k, c]));
  } else if (S.layer === "sides") {
    const sides = [...new Set(S.model.units.map((u) => u.side || "no side"))];
    const sideColour = (s) => NAMED[String(s).toLowerCase()] || DISTINCT[sides.indexOf(s) % DISTINCT.length];
    els.forEach((_, i) => setState(i, [235, 235, 235], 200));
    S.model.units.forEach((u) => { const c = sideColour(u.side || "no side");
      u.elements.forEach((i) => setState(i, c, u.kind === "minifig" ? 220 : soft)); });
    legend(sides.map((s) => [s, sideColour(s)]));
  } else legend([]);
  for (const i of S.selected) if (S.selected.length > 1) setState(i, [255, 150, 0], 200);
  if (S.overlay) S.overlay();
  pushState();
  buildLabels();
}

// ------------------------------------------------------------------------------------------------ labels
let LABELS = [];
function buildLabels() {
  LABELS = (S.extraLabels || []).slice();
  if ($("unit-labels").checked || S.layer === "sides")
    for (const u of S.model.units) LABELS.push({ text: u.name, at: u.eye_ldu, cls: "unit" });
  const box = $("labels"); box.innerHTML = "";
  for (const l of LABELS) { l.el = document.createElement("div"); l.el.className = "label " + (l.cls || "");
    l.el.textContent = l.text; box.appendChild(l.el); }
  placeLabels();
}
function placeLabels() {  // labels stay inside the frame and do not overlap (pushed down when they would)
  if (!R.vp) return;
  const W = canvas.clientWidth, H = canvas.clientHeight, placed = [];
  for (const l of LABELS) {
    const p = project(l.at);
    if (!p) { l.el.style.display = "none"; continue; }
    const w = l.el.offsetWidth || 60, h = l.el.offsetHeight || 16;
    let x = Math.min(Math.max(p[0], w / 2 + 2), W - w / 2 - 2), y = Math.min(Math.max(p[1], h + 2), H - 2);
    for (let tries = 0; tries < 30; tries++) {
      const hit = placed.find((q) => Math.abs(q[0] - x) < (q[2] + w) / 2 && Math.abs(q[1] - y) < (q[3] + h) / 2);
      if (!hit) break;
      y = hit[1] + (hit[3] + h) / 2 + 1;
      if (y > H - 2) { y = h + 2; x = Math.min(x + w, W - w / 2 - 2); }
    }
    placed.push([x, y, w, h]);
    l.el.style.display = ""; l.el.style.left = x + "px"; l.el.style.top = y + "px";
  }
}

// ------------------------------------------------------------------------------------------------ panel
function fmt(v) { return v === null || v === undefined ? "—" : (typeof v === "number" ? (Math.round(v * 100) / 100).toString() : esc(v)); }
function showPick(i) {
  if (i < 0) { $("pick-info").textContent = "Hover or click a brick."; return; }
  const e = S.model.elements[i];
  $("pick-info").innerHTML = `<table>
    <tr><th>part</th><td>${esc(e.part)}</td></tr><tr><th>description</th><td>${esc(e.description)}</td></tr>
    <tr><th>colour</th><td>${esc(e.colour_name)} (${e.colour})</td></tr>
    <tr><th>creation</th><td>${esc(e.creation || "—")}</td></tr>
    <tr><th>role</th><td id="pick-role">${esc(e.role || "—")}</td></tr><tr><th>reason</th><td>${esc(e.reason)}</td></tr>
    <tr><th>element</th><td id="pick-index">${e.index}</td></tr><tr><th>line</th><td>${esc(e.source)}</td></tr>
    ${e.section ? `<tr><th>section</th><td>${esc(e.section)}</td></tr>` : ""}</table>`;
  document.querySelectorAll(".card").forEach((c) => c.classList.toggle("current", c.dataset.name === e.creation));
}
function renderCards() {
  const cards = S.model.creations, big = cards.filter((c) => c.kind !== "minifig" && c.kind !== "loose item");
  const small = cards.filter((c) => c.kind === "minifig");
  let h = big.map((c) => `<div class="card" data-name="${esc(c.name)}"><h3>${esc(c.name)} <small>(${esc(c.kind)})</small></h3>
    <table><tr><th>Size</th><td class="size">${c.size} <small>(${fmt(c.size_in)}", ${c.structural_elements.length} structural of ${c.elements.length})</small></td></tr>
    <tr><th>Structure Level</th><td>${fmt(c.structure_level)}</td></tr><tr><th>Armor</th><td>${esc(c.armor)}</td></tr>
    <tr><th>Base Cost</th><td>${fmt(c.base_cost)} CP</td></tr>
    ${c.weapons.map((w) => `<tr><th>Weapon</th><td class="weapon">${esc(w.name || w.type)}: ${esc(w.type)} Size ${fmt(w.size)}, ${fmt(w.cost)} CP, Range ${fmt(w.range_in)}", ${esc(w.damage)}</td></tr>`).join("")}
    ${c.propulsion.map((p) => `<tr><th>Propulsion</th><td>${esc(p.type)} Move ${fmt(p.move_in)}", ${fmt(p.cost)} CP</td></tr>`).join("")}
    <tr><th>Power</th><td>${fmt(c.power)}"</td></tr>
    <tr><th>Total</th><td class="total"><b>${fmt(c.total_cost)} CP</b></td></tr></table></div>`).join("");
  if (small.length) h += `<table><tr><th>minifig</th><th>SL</th><th>Armor</th><th>weapons</th><th>CP</th></tr>${small.map((c) =>
    `<tr><td>${esc(c.name)}</td><td>${fmt(c.structure_level)}</td><td>${esc(c.armor)}</td><td>${c.weapons.map((w) => esc(w.type)).join(", ") || "—"}</td><td>${fmt(c.total_cost)}</td></tr>`).join("")}</table>`;
  const a = S.model.army;
  h += `<div id="army"><b>Army total: ${fmt(a.total_cost)} CP</b> (${a.creations} creations, ${a.minifigs} minifigs)</div>`;
  $("cards").innerHTML = h;
}
function renderSelection() {
  $("sel-count").textContent = S.selected.length ? `${S.selected.length} brick${S.selected.length > 1 ? "s" : ""} selected` : "no selection";
}

// ------------------------------------------------------------------------------------------------ actions
async function changeRole() {
  if (!S.selected.length) { status("select a brick first"); return; }
  const body = { elements: S.selected, role: $("role-select").value };
  const t = $("role-type").value.trim(); if (t) body.type = t;
  status("re-costing…");
  try {
    const r = await api.post("/api/roles", body);
    applyRoles(r); status(`role of ${S.selected.length} brick(s) set to ${body.role}`);
    S.history.push({ kind: "role" });
  } catch (err) { status(err.message, true); }
}
function renderAttackers() {
  const names = S.model.attackers || [];
  $("attack-attackers").innerHTML = names.length ? "armed: " + names.map((n) => `<a href="#" class="attacker" data-name="${esc(n)}">${esc(n)}</a>`).join(", ") : "no unit or creation has a weapon";
  document.querySelectorAll("a.attacker").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); attacksFrom(a.dataset.name); }));
}
function applyRoles(r) {
  if (r.attackers) S.model.attackers = r.attackers;
  if (r.units) S.model.units = r.units;
  renderAttackers();
  for (const e of r.elements) Object.assign(S.model.elements[e.index], { creation: e.creation, role: e.role, reason: e.reason, section: e.section });
  S.model.creations = r.creations; S.model.army = r.army;
  renderCards(); applyLayer();
  if (S.selected.length) showPick(S.selected[S.selected.length - 1]);
}

function clearOverlay() { S.overlay = null; S.extraLabels = []; R.lines = []; S.lastResult = null; $("result").textContent = "—"; }

function ring3(centre, r, colour, segs) {  // three great circles: a sphere's outline from any side
  const out = [];
  for (let ax = 0; ax < 3; ax++) for (let k = 0; k < segs; k++) {
    const a0 = 2 * Math.PI * k / segs, a1 = 2 * Math.PI * (k + 1) / segs;
    const pt = (a) => { const u = [0, 0, 0]; u[ax] = Math.cos(a) * r; u[(ax + 1) % 3] = Math.sin(a) * r; return add(centre, u); };
    out.push({ a: pt(a0), b: pt(a1), c: colour, depth: false });
  }
  return out;
}
function cross3(p, s, colour) { return [0, 1, 2].map((ax) => { const d = [0, 0, 0]; d[ax] = s; return { a: sub(p, d), b: add(p, d), c: colour, depth: false }; }); }

const SECTION_TINTS = [[40, 120, 230], [40, 190, 90], [240, 160, 20], [160, 80, 220], [20, 190, 200], [230, 90, 160]];
function showDamage(res, kind, extra) {
  S.lastResult = res;
  const lpi = S.model.ldu_per_inch;
  const destroyed = new Set(res.destroyed);
  const sections = res.sections.filter((s) => !s.destroyed && s.elements.length && s.kind !== "loose object");
  const touched = sections.filter((s) => s.elements.some((i) => res.element_damage ? true : true));
  const labels = [];
  const lines = [];
  if (kind === "blast") for (const bl of res.blasts) {
    lines.push(...cross3(bl.centre_ldu, 12, [0, 0, 0, 1]));
    labels.push({ text: "blast centre", at: bl.centre_ldu, cls: "ring" });
    bl.rings.forEach((r, k) => {
      const rad = r.outer_radius_in * lpi, shade = 1 - k / Math.max(1, bl.rings.length);
      lines.push(...ring3(bl.centre_ldu, rad, [0.9, 0.25 + 0.4 * (1 - shade), 0.1, 0.9], 64));
      labels.push({ text: `ring ${k + 1}: ${r.damage} damage`, at: add(bl.centre_ldu, [0, -rad, 0]), cls: "ring" });
    });
  }
  if (kind === "hit" && extra && extra.from) lines.push({ a: extra.from, b: extra.toward, c: [0.8, 0, 0, 1], depth: false });
  const heat = res.monte_carlo ? res.monte_carlo.p_destroyed : null;
  S.overlay = () => {
    R.offsData.fill(0);
    if (heat) {
      const ramp = (t) => t < 0.33 ? [32, 64 + 380 * t, 192] : t < 0.66 ? [32 + 580 * (t - 0.33), 192, 192 - 500 * (t - 0.33)] : [224, 224 - 600 * (t - 0.66), 32];
      S.model.elements.forEach((_, i) => setState(i, [230, 230, 230], 170));
      for (const [i, p] of Object.entries(heat)) setState(+i, ramp(p).map((v) => Math.max(0, Math.min(255, v))), 235);
    } else {
      sections.forEach((s, k) => s.elements.forEach((i) => setState(i, SECTION_TINTS[k % SECTION_TINTS.length], 120)));
    }
    const c = S.model.bbox_ldu; const mid = scale(add(c[0], c[1]), 0.5);
    if (heat) return;  // the heat map shows chances; this roll's debris would hide them
    for (const i of destroyed) {
      setState(i, [60, 10, 10], 230);
      const e = S.model.elements[i], p = scale(add(e.bbox_ldu[0], e.bbox_ldu[1]), 0.5);
      const d = norm(sub(p, kind === "blast" ? res.blasts[0].centre_ldu : mid));
      const o = i * 4, f = S.fly || 0;
      R.offsData[o] = d[0] * 60 * f; R.offsData[o + 1] = (d[1] * 60 - 80) * f; R.offsData[o + 2] = d[2] * 60 * f;
    }
  };
  sections.forEach((s, k) => {
    const ids = s.elements; let lo = [1e9, 1e9, 1e9], hi = [-1e9, -1e9, -1e9];
    for (const i of ids) { const b = S.model.elements[i].bbox_ldu; for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], b[0][a]); hi[a] = Math.max(hi[a], b[1][a]); } }
    if (!heat && (sections.length > 1 || res.destroyed.length))
      labels.push({ text: `${s.name || s.creation}: Size ${s.size}, ES ${s.effective_size}`, at: [(lo[0] + hi[0]) / 2, lo[1], (lo[2] + hi[2]) / 2], cls: "section" });
  });
  S.extraLabels = labels.slice(0, 60); R.lines = lines;
  // the panel: numbers and keys
  let h = "";
  if (heat) h += `<div><b>Monte Carlo, ${res.monte_carlo.trials} trials</b>: chance each brick is destroyed (expected ${fmt(res.monte_carlo.expected_destroyed)} bricks)</div><div class="scale"></div><div style="display:flex;justify-content:space-between"><span>0%</span><span>50%</span><span>100%</span></div><div>One roll of it:</div>`;
  if (kind === "blast") h += `<table><tr><th>ring</th><th>radius</th><th>damage</th><th>KnockBack</th></tr>${res.rings.map((r, k) =>
    `<tr><td>${k + 1}</td><td>${fmt(r.outer_radius_in)}"</td><td>${r.damage}</td><td>${fmt(r.knockback_in)}"</td></tr>`).join("")}</table>
    <div>dice ${esc(res.blasts.map((b) => b.dice + (b.rolls ? " rolled " + JSON.stringify(b.rolls) : " (expected)")).join("; "))}</div>`;
  if (kind === "hit") h += `<div>damage ${fmt(res.damage)} → target ${res.target}</div><table><tr><th>element</th><th>armor</th><th>result</th></tr>${(res.steps || []).map((s) =>
    `<tr><td>${s.element}</td><td>${fmt(s.armor)}</td><td>${s.destroyed ? "destroyed" : "holds"}</td></tr>`).join("")}</table>`;
  h += `<div>Armor rolls: ${esc(JSON.stringify(res.armor_rolls))}</div>`;
  h += `<div id="destroyed-list">destroyed (${res.destroyed.length}): ${res.destroyed.join(", ") || "none"}</div>`;
  h += `<table><tr><th></th><th>section</th><th>Size</th><th>ES</th><th>bricks</th></tr>${sections.map((s, k) =>
    `<tr><td><span class="swatch" style="background:${rgbCss(SECTION_TINTS[k % SECTION_TINTS.length])}"></span></td><td>${esc(s.name || s.creation)}</td><td>${s.size}</td><td>${s.effective_size}</td><td>${s.elements.length}</td></tr>`).join("")}
    <tr><td><span class="swatch" style="background:rgb(60,10,10)"></span></td><td>destroyed</td><td></td><td></td><td>${res.destroyed.length}</td></tr></table>`;
  $("result").innerHTML = h;
  S.fly = 0; applyLayer();
  if (res.destroyed.length && !heat) {  // destroyed bricks fly off over 0.8 s
    const t0 = performance.now();
    const step = (t) => { S.fly = Math.min(1, (t - t0) / 800); S.overlay && S.overlay(); pushState(); if (S.fly < 1) requestAnimationFrame(step); };
    requestAnimationFrame(step);
  }
}

function listOf(text) { const t = text.trim(); if (!t) return undefined; return t.split(/[ ,]+/).map(Number); }
async function blastAt(pick) {
  const body = { dice: $("blast-dice").value.trim() || "3d10" };
  if ($("blast-on-element").checked || !pick.point) body.at_element = pick.element; else body.at = pick.point;
  const rolls = listOf($("blast-rolls").value), armor = listOf($("blast-armor").value);
  if (rolls) body.rolls = rolls; if (armor) body.armor_rolls = armor;
  const trials = parseInt($("blast-trials").value || "0", 10); if (trials > 0) body.trials = trials;
  status("blasting…"); const t = performance.now();
  try {
    const res = await api.post("/api/blast", body);
    S.timings.blast_ms = performance.now() - t; S.history.push({ kind: "overlay" });
    showDamage(res, "blast"); status(`blast: ${res.destroyed.length} destroyed (${Math.round(S.timings.blast_ms)} ms)`);
  } catch (err) { status(err.message, true); }
}
async function hitAt(pick, shift) {
  if (shift && pick.point) { S.from = pick.point; $("hit-attacker").value = "";
    $("hit-from").textContent = `attacker at ${pick.point.map((v) => v.toFixed(0)).join(", ")} (LDU)`; return; }
  const body = {};
  const dice = $("hit-dice").value.trim(); if (dice) body.dice = dice; else body.damage = parseFloat($("hit-damage").value || "0");
  const attacker = S.model.units.find((u) => u.name === $("hit-attacker").value);
  const from = attacker ? attacker.eye_ldu : S.from;
  if (from && pick.point) { body.from = from; body.toward = pick.point; } else body.element = pick.element;
  status("hitting…");
  try {
    const res = await api.post("/api/hit", body); S.history.push({ kind: "overlay" });
    showDamage(res, "hit", body.from ? { from: body.from, toward: body.toward } : null);
    status(`hit: ${res.destroyed.length} destroyed`);
  } catch (err) { status(err.message, true); }
}
function unitOf(i) { return S.model.units.find((u) => u.kind === "minifig" && u.elements.includes(i)) || S.model.units.find((u) => u.elements.includes(i)); }
async function sightClick(i) {
  const u = unitOf(i);
  if (!u) { status("that brick belongs to no unit"); return; }
  if (!S.viewer || S.viewer === u.name) { S.viewer = u.name; $("sight-viewer").textContent = `viewer: ${u.name} — now click a target`; status(""); return; }
  await sight(S.viewer, u.name);
}
async function sight(from, to) {
  status("casting rays…");
  try {
    const res = await api.post("/api/los", { from, to, rays: true });
    S.lastResult = res; S.history.push({ kind: "overlay" }); showSight(res, 0);
    status(`${res.pairs.length} pair(s), ${res.rays} rays`);
  } catch (err) { status(err.message, true); }
}
function showSight(res, k) {
  const pairs = res.pairs;
  $("sight-table").innerHTML = `<table><tr><th>from</th><th>to</th><th>sees</th><th>sections</th><th>mod.</th><th>range</th><th>blocked by</th></tr>${pairs.map((p, j) =>
    `<tr class="pair" data-k="${j}"><td>${esc(p.from)}</td><td>${esc(p.to)}</td><td class="${p.visible ? "clear" : "blocked"}">${p.visible ? "yes" : "no"}</td>
    <td>${p.target_kind === "minifig" ? esc(p.sections_visible.join("+") || "—") : Math.round(p.visible_fraction * 100) + "%"}</td>
    <td>${p.modifier >= 0 ? "+" : ""}${p.modifier}</td><td>${fmt(p.distance_in)}"</td><td>${p.blockers.slice(0, 2).map((b) => b.index + " " + esc(b.part)).join(", ")}</td></tr>`).join("")}</table>`;
  document.querySelectorAll("tr.pair").forEach((tr) => tr.addEventListener("click", () => showSight(res, +tr.dataset.k)));
  const p = pairs[k], rays = res.ray_lines ? res.ray_lines[k] : null;
  const lines = [];
  if (rays) rays.origins.forEach((o, j) => lines.push({ a: o, b: rays.ends[j], c: rays.blocked[j] ? [0.85, 0.1, 0.1, 1] : [0.1, 0.7, 0.2, 1], depth: true }));
  R.lines = lines;
  const target = S.model.units.find((u) => u.name === p.to);
  S.overlay = () => {
    if (target) for (const [sec, ids] of Object.entries(target.sections)) {
      const seen = p.sections_visible.includes(sec) || (p.target_kind !== "minifig" && p.visible);
      ids.forEach((i) => setState(i, seen ? [40, 200, 60] : [200, 40, 40], 190));
    }
    for (const b of p.blockers) setState(b.index, [230, 0, 230], 230);
  };
  S.extraLabels = [{ text: `${p.from} → ${p.to}: ${p.visible ? "sees " + (p.sections_visible.join("+") || Math.round(p.visible_fraction * 100) + "%") : "no sight"}, modifier ${p.modifier >= 0 ? "+" : ""}${p.modifier}, ${fmt(p.distance_in)}"`,
    at: target ? target.eye_ldu : rays.ends[0], cls: "unit" }];
  $("result").innerHTML = `<div>${esc(p.from)} → ${esc(p.to)}: <b>${p.visible ? "visible" : "not visible"}</b>; sections ${esc(p.sections_visible.join(", ") || "—")}; modifier ${p.modifier}; range ${fmt(p.distance_in)}"</div>
    <div><span class="swatch" style="background:rgb(26,178,51)"></span>clear ray <span class="swatch" style="background:rgb(217,26,26)"></span>blocked ray <span class="swatch" style="background:rgb(230,0,230)"></span>blocking brick</div>`;
  applyLayer();
}

// ------------------------------------------------------------------------------------------------ attacks
// the colours of `attacks --png` (render/attacks_view.chance_rgb): red no chance, yellow even, green sure
function chanceRgb(p) {
  p = Math.min(1, Math.max(0, p));
  if (p < 0.5) { const t = p / 0.5; return [215, Math.trunc(30 + t * 170), 30]; }
  const t = (p - 0.5) / 0.5; return [Math.trunc(215 - t * 195), Math.trunc(200 - t * 30), Math.trunc(30 + t * 10)];
}
const NO_SHOT = [120, 120, 120], ATTACKER = [30, 60, 220];
function unitCentre(u) {
  if (u.kind === "minifig") return u.eye_ldu;
  let lo = [1e9, 1e9, 1e9], hi = [-1e9, -1e9, -1e9];
  for (const i of u.elements) { const b = S.model.elements[i].bbox_ldu; for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], b[0][a]); hi[a] = Math.max(hi[a], b[1][a]); } }
  return scale(add(lo, hi), 0.5);
}
function attackerOf(i) {  // the armed unit a click means: a minifig first, else the creation the brick is in
  const armed = new Set(S.model.attackers || []);
  const us = S.model.units.filter((u) => u.elements.includes(i));
  return us.find((u) => u.kind === "minifig" && armed.has(u.name)) || us.find((u) => armed.has(u.name)) || null;
}
async function attackClick(i) {
  const u = attackerOf(i);
  if (!u) { const any = unitOf(i); status(any ? `${any.name} has no weapon` : "that brick belongs to no unit"); return; }
  await attacksFrom(u.name);
}
async function attacksFrom(name) {
  status(`aiming ${name}…`); const t = performance.now();
  try {
    const res = await api.post("/api/attacks", { from: name, arcs: true });
    S.timings.attacks_ms = performance.now() - t;
    S.lastResult = res; S.history.push({ kind: "overlay" }); showAttacks(res, name);
    status(`${name}: ${res.attacks.length} option(s) (${Math.round(S.timings.attacks_ms)} ms)`);
  } catch (err) { status(err.message, true); }
}
function cone(a, lines) {  // a translucent-looking wire cone: the rim and eight generators
  const ax = norm(a.axis), h = Math.cos(a.half_angle_deg * Math.PI / 180) * a.length_ldu,
    r = Math.sin(a.half_angle_deg * Math.PI / 180) * a.length_ldu;
  const u = norm(cross(ax, Math.abs(ax[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0])), v = cross(ax, u);
  const centre = add(a.apex_ldu, scale(ax, h)), c = [0.15, 0.3, 0.95, 1], n = 32;
  const at = (k) => add(centre, add(scale(u, Math.cos(2 * Math.PI * k / n) * r), scale(v, Math.sin(2 * Math.PI * k / n) * r)));
  for (let k = 0; k < n; k++) { lines.push({ a: at(k), b: at(k + 1), c, depth: false }); if (k % 4 === 0) lines.push({ a: a.apex_ldu, b: at(k), c, depth: false }); }
}
function showAttacks(res, name) {
  const units = Object.fromEntries(S.model.units.map((u) => [u.name, u]));
  const best = {};  // per target: its best option (the highest chance to hit among those that can fire)
  for (const o of res.attacks) {
    const b = best[o.target];
    if (!b || (o.possible && (!b.possible || o.p_hit > b.p_hit))) best[o.target] = o;
  }
  S.attackView = {};
  const lines = [], labels = [];
  for (const [t, o] of Object.entries(best)) {
    const rgb = o.possible ? chanceRgb(o.p_hit) : NO_SHOT;
    S.attackView[t] = { weapon: o.weapon, needed_roll: o.needed_roll, p_hit: o.p_hit, possible: o.possible, rgb };
    const u = units[t]; if (!u) continue;
    const end = unitCentre(u);
    if (o.possible) lines.push({ a: o.origin_ldu, b: end, c: [...rgb.map((v) => v / 255), 1], depth: false });
    labels.push({ text: o.possible ? `${t}: ${o.weapon}, needs ${o.needed_roll} (${pct(o.p_hit)})` : `${t}: cannot fire`, at: end, cls: "attack" });
  }
  const arcLines = []; for (const a of res.arcs || []) cone(a, arcLines);
  lines.push(...arcLines);
  const me = units[name];
  if (me) labels.unshift({ text: `${name} (attacker)`, at: unitCentre(me), cls: "unit" });
  R.lines = lines; S.extraLabels = labels.slice(0, 60);
  S.overlay = () => {
    for (const [t, v] of Object.entries(S.attackView)) { const u = units[t]; if (u) u.elements.forEach((i) => setState(i, v.rgb, 215)); }
    if (me) me.elements.forEach((i) => setState(i, ATTACKER, 215));
  };
  const w = res.weapons.map((x) => `${esc(x.weapon)} (${esc(x.type)}, ${esc(x.mount)}; Use ${fmt(x.use)}, Range ${fmt(x.range_in)}", ${esc(x.damage)}, Skill ${esc(x.skill_die)})`).join("; ");
  $("result").innerHTML = `<div><b>${esc(name)}</b>: ${w}</div>${res.warnings.map((x) => `<div class="blocked">${esc(x)}</div>`).join("")}
    <table id="attack-table"><tr><th></th><th>weapon</th><th>target</th><th>distance</th><th>range</th><th>modifiers</th><th>needs</th><th>hit</th><th>kill</th></tr>${res.attacks.map((o, k) =>
    `<tr class="attack-row" data-k="${k}" data-target="${esc(o.target)}" data-needed="${o.needed_roll ?? ""}"><td><span class="swatch" style="background:${rgbCss(o.possible ? chanceRgb(o.p_hit) : NO_SHOT)}"></span></td>
    <td>${esc(o.weapon)}</td><td>${esc(o.target)}</td><td>${fmt(o.distance_in)}"</td><td>${o.range_in === null ? "—" : fmt(o.range_in) + '"'}</td>
    <td>${o.in_arc ? o.modifiers.map((m) => `${m.value >= 0 ? "+" : ""}${m.value} ${esc(m.name)}`).join(", ") : `out of arc (${fmt(o.aim_off_deg)}° off)`}</td>
    <td class="needed">${o.needed_roll ?? "—"}</td><td class="p-hit">${pct(o.p_hit)}</td><td>${o.p_kill === null ? "—" : pct(o.p_kill)}</td></tr>`).join("")}</table>`;
  document.querySelectorAll("tr.attack-row").forEach((tr) => tr.addEventListener("click", () => {
    const o = res.attacks[+tr.dataset.k], u = units[o.target];
    R.lines = arcLines.slice();
    if (u && o.possible) R.lines.push({ a: o.origin_ldu, b: unitCentre(u), c: [...chanceRgb(o.p_hit).map((v) => v / 255), 1], depth: false });
    redraw();
  }));
  applyLayer();
}
function pct(p) { return p <= 0 ? "0 %" : p < 0.005 ? "<1 %" : `${Math.round(p * 100)} %`; }

async function undo() {
  const last = S.history.pop();
  if (!last) { status("nothing to undo"); return; }
  if (last.kind === "role") { try { applyRoles(await api.post("/api/roles/undo")); status("role change undone"); } catch (err) { status(err.message, true); } }
  else { clearOverlay(); applyLayer(); status("cleared"); }
}
async function resetAll() {
  S.history = []; S.selected = []; S.viewer = null; S.from = null; clearOverlay(); renderSelection();
  $("sight-viewer").textContent = ""; $("sight-table").innerHTML = ""; $("hit-from").textContent = "";
  try { applyRoles(await api.post("/api/roles/reset")); } catch (err) { status(err.message, true); }
  status("reset");
}

// ------------------------------------------------------------------------------------------------ input
function bindInput() {
  let down = null;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => { down = { x: e.clientX, y: e.clientY, b: e.button, shift: e.shiftKey, moved: false, theta: C.theta, phi: C.phi, target: C.target.slice() }; try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic or finished pointer */ } });
  canvas.addEventListener("pointermove", (e) => {
    const r = canvas.getBoundingClientRect();
    if (down) {
      const dx = e.clientX - down.x, dy = e.clientY - down.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) down.moved = true;
      if (!down.moved) return;
      if (down.b === 2 || down.b === 1) {  // pan in the view plane
        const e0 = eyePos(), f = norm(sub(C.target, e0)), right = norm(cross(f, [0, -1, 0])), up = cross(right, f);
        const k = C.dist * Math.tan(C.fov / 2) * 2 / canvas.clientHeight;
        C.target = add(down.target, add(scale(right, -dx * k), scale(up, dy * k)));
      } else { C.theta = down.theta - dx * 0.008; C.phi = Math.max(-1.55, Math.min(1.55, down.phi + dy * 0.008)); }
      redraw(); return;
    }
    const p = pickAt(e.clientX - r.left, e.clientY - r.top);
    if (p.element !== S.hover) { S.hover = p.element; redraw(false); }
    const tip = $("tooltip");
    if (p.element >= 0) { const el = S.model.elements[p.element];
      tip.hidden = false; tip.textContent = `#${el.index} ${el.part} ${el.description} — ${el.role || "?"}`;
      tip.style.left = (e.clientX - r.left + 14) + "px"; tip.style.top = (e.clientY - r.top + 14) + "px";
      if (!S.selected.length) showPick(p.element);
    } else tip.hidden = true;
  });
  canvas.addEventListener("pointerup", (e) => {
    const d = down; down = null;
    if (!d || d.moved || d.b !== 0) return;
    const r = canvas.getBoundingClientRect();
    onClick(pickAt(e.clientX - r.left, e.clientY - r.top), d.shift);
  });
  canvas.addEventListener("pointerleave", () => { $("tooltip").hidden = true; if (S.hover !== -1) { S.hover = -1; redraw(false); } });
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); C.dist *= Math.exp(e.deltaY * 0.001); C.dist = Math.max(C.radius * 0.02, Math.min(C.radius * 20, C.dist)); redraw(); }, { passive: false });
  window.addEventListener("resize", () => redraw());
  document.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", () => { S.mode = r.value; document.body.className = "mode-" + S.mode; }));
  document.querySelectorAll("input[name=layer]").forEach((r) => r.addEventListener("change", () => { S.layer = r.value; applyLayer(); }));
  $("soft").addEventListener("change", applyLayer); $("unit-labels").addEventListener("change", applyLayer);
  $("role-apply").addEventListener("click", changeRole);
  $("undo").addEventListener("click", undo); $("reset").addEventListener("click", resetAll);
  $("view-reset").addEventListener("click", () => { frameAll(); redraw(); });
  $("sight-all").addEventListener("click", () => { if (S.viewer) sight(S.viewer, "all"); else status("click a unit first"); });
}
async function onClick(pick, shift) {
  S.lastPick = pick;
  if (S.mode === "blast") { if (pick.element >= 0 || pick.point) await blastAt(pick); return; }
  if (S.mode === "hit") { if (pick.element >= 0) await hitAt(pick, shift); return; }
  if (S.mode === "sight") { if (pick.element >= 0) await sightClick(pick.element); return; }
  if (S.mode === "attack") { if (pick.element >= 0) await attackClick(pick.element); return; }
  const wasMulti = S.selected.length > 1;
  if (pick.element < 0) { S.selected = []; }
  else if (shift) { const k = S.selected.indexOf(pick.element); if (k >= 0) S.selected.splice(k, 1); else S.selected.push(pick.element); }
  else S.selected = [pick.element];
  renderSelection(); showPick(pick.element >= 0 ? pick.element : -1);
  if (pick.element >= 0) { const e = S.model.elements[pick.element]; if (e.role) $("role-select").value = e.role; }
  if (wasMulti || S.selected.length > 1) applyLayer(); else redraw(false);  // one brick: the composite pass outlines it
}

// ------------------------------------------------------------------------------------------------ start
async function start() {
  S.history = [];
  window.addEventListener("error", (e) => S.errors.push(String(e.message)));
  try {
    // the first picture needs only the geometry: the model's elements, cards and units come meanwhile
    const loads = window.brikscanLoads || {}, ok = async (r) => { if (!r.ok) throw new Error((await r.json()).error); return r; };
    const modelP = (loads.model || fetch("/api/model")).then(ok).then((r) => r.json());
    const g = await (loads.geometry || fetch("/api/geometry")).then(ok).then((r) => r.arrayBuffer());
    S.timings.fetch_ms = performance.now();  // (from the start of navigation)
    S.geoBytes = g.byteLength;
    const geo = parseGeometry(g); S.geo = geo.head;
    if (!hasFloatRT) status("this browser cannot render float targets: picking is off", true);
    upload(geo); frameAll(); ensureTargets();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    S.timings.upload_ms = performance.now();  // (from the start of navigation)
    R.dirty = true; draw();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));  // waits for the frame (finish() may not)
    S.timings.first_picture_ms = performance.now();  // (from the start of navigation)
    startPickReadback();
    const m = await modelP;
    S.model = m;
    $("model-name").textContent = `${m.name} — ${m.elements.length} elements, ${m.triangles.toLocaleString()} triangles` +
      (S.geo.primitives === "low" ? " (low-res studs)" : "");
    if (S.geo.primitives === "low") $("model-name").title = `drawn with LDraw's low-resolution primitives (p/8/): ${S.geo.triangles.toLocaleString()} triangles`;
    $("role-select").innerHTML = m.roles.map((r) => `<option>${esc(r)}</option>`).join("");
    $("hit-attacker").innerHTML += m.units.map((u) => `<option>${esc(u.name)}</option>`).join("");
    renderAttackers();
    if (!m.editable) { $("roles-box").style.opacity = 0.5; $("download").hidden = true; }
    bindInput(); renderCards(); renderSelection(); applyLayer();
    S.timings.model_ms = performance.now();  // (from the start of navigation)
    const res = performance.getEntriesByType("resource").filter((r) => r.name.includes("/api/"));
    for (const r of res) { const k = r.name.split("/api/")[1];
      S.timings[k + "_fetch_ms"] = r.responseEnd - r.startTime; S.timings[k + "_start_ms"] = r.startTime; }
    S.timings.script_start_ms = T0;
    $("hint").textContent = "drag: rotate · right-drag: pan · wheel: zoom · click: pick · shift-click: add to selection";
    S.ready = true;
    status(`ready in ${(S.timings.first_picture_ms / 1000).toFixed(1)} s`);
  } catch (err) { status(err.message, true); console.error(err); }
}
start();
