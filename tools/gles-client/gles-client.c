// SPDX-License-Identifier: MIT
/*
 * gles-client: a GLES2 application with a known workload, for measuring
 * the GPU while something renders. EGL on Mesa's surfaceless platform (no
 * display, no window system), one FBO with an RGB565 colour renderbuffer;
 * each frame clears it, draws TRIS triangles in one draw call and waits
 * for the GPU (glFinish), so that the driver submits one vertex/tiler
 * chain and one fragment chain per frame. With -c (GLES 3.1) each frame
 * is instead one compute dispatch of X x Y workgroups of 128 invocations,
 * then glFinish: one compute chain a frame, long enough on the emulated GPU
 * (4 cycles an invocation) that a job's few milliseconds of interrupt
 * latency are small beside it. At the end it prints one line
 * saying what it submitted; errors are one line on stderr, exit status 1.
 *
 *   gles-client [-n FRAMES] [-s WIDTHxHEIGHT] [-t TRIS] [-c XxY]
 *
 * The emulated GPU runs the jobs but shades nothing: the pixels are not
 * checked.
 */
#define EGL_EGLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

#define MAX_FRAMES	100000
#define MAX_SIZE	4096
#define MAX_TRIS	65536
#define MAX_GROUPS	65535	/* GLES 3.1's least MAX_COMPUTE_WORK_GROUP_COUNT */
#define LOCAL_SIZE	128	/* GLES 3.1's least MAX_COMPUTE_WORK_GROUP_SIZE, the T860's */

static const char *vs_src =
	"attribute vec2 pos;\n"
	"uniform float phase;\n"
	"varying vec3 col;\n"
	"void main() {\n"
	"	col = vec3(0.5 + 0.5 * sin(phase + pos.x * 4.0), 0.5, 1.0);\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

static const char *fs_src =
	"precision mediump float;\n"
	"varying vec3 col;\n"
	"void main() {\n"
	"	gl_FragColor = vec4(col, 1.0);\n"
	"}\n";

static const char *cs_src =
	"#version 310 es\n"
	"layout(local_size_x = 128) in;\n"
	"layout(std430, binding = 0) buffer Out { uint v[]; };\n"
	"void main() {\n"
	"	uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 7u;\n"
	"	v[i & 1023u] = i;\n"
	"}\n";

static int fail(const char *what, const char *detail)
{
	fprintf(stderr, "gles-client: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	return 1;
}

static int egl_fail(const char *what)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "EGL error 0x%04x", eglGetError());
	return fail(what, buf);
}

/* A decimal number in [min, max]; false otherwise. */
static int parse_num(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && (*end == '\0' || *end == 'x') &&
	       *out >= min && *out <= max;
}

static GLuint shader(GLenum type, const char *src, char *log, size_t len)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(s, (GLsizei)len, NULL, log);
		return 0;
	}
	return s;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *usage =
	"want -n FRAMES (1..100000), -s WIDTHxHEIGHT (1..4096 each), -t TRIS (1..65536), "
	"-c XxY workgroups (1..65535 each)";

/* FRAMES compute dispatches of @gx x @gy workgroups, each waited for */
static int compute_frames(long frames, long gx, long gy, char *log, size_t len)
{
	GLuint cs, prog, ssbo;
	GLint linked = 0;

	cs = shader(GL_COMPUTE_SHADER, cs_src, log, len);
	if (!cs)
		return fail("compute shader compile failed", log);
	prog = glCreateProgram();
	glAttachShader(prog, cs);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		glGetProgramInfoLog(prog, (GLsizei)len, NULL, log);
		return fail("compute program link failed", log);
	}
	glUseProgram(prog);
	glGenBuffers(1, &ssbo);
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, ssbo);
	glBufferData(GL_SHADER_STORAGE_BUFFER, 1024 * sizeof(GLuint), NULL, GL_DYNAMIC_COPY);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, ssbo);
	for (long f = 0; f < frames; f++) {
		glDispatchCompute((GLuint)gx, (GLuint)gy, 1);
		glFinish();
	}
	return 0;
}

int main(int argc, char **argv)
{
	EGLint cfg_attr[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,	/* [3]: ES3 with -c */
		EGL_RED_SIZE, 5, EGL_GREEN_SIZE, 6, EGL_BLUE_SIZE, 5,
		EGL_NONE,
	};
	static const EGLint ctx2_attr[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	static const EGLint ctx31_attr[] = {
		EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE,
	};
	long frames = 10, w = 256, h = 256, tris = 64, groups = 0, gy = 0, f;
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
	GLuint fbo, rb, vs, fs, prog, vbo;
	GLint linked = 0, phase;
	GLfloat *verts;
	EGLDisplay dpy;
	EGLConfig cfg;
	EGLContext ctx;
	EGLint major, minor, n = 0;
	GLenum status, err;
	char log[512] = "";
	double t0, t1;
	int i, opt;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] != '-' || !a[1] || a[2] || !v) {
			fprintf(stderr, "gles-client: bad argument %s: %s\n", a, usage);
			return 1;
		}
		opt = a[1];
		i++;
		if (opt == 'n' && parse_num(v, 1, MAX_FRAMES, &frames) && !strchr(v, 'x'))
			continue;
		if (opt == 't' && parse_num(v, 1, MAX_TRIS, &tris) && !strchr(v, 'x'))
			continue;
		if (opt == 'c' && strchr(v, 'x') && parse_num(v, 1, MAX_GROUPS, &groups) &&
		    parse_num(strchr(v, 'x') + 1, 1, MAX_GROUPS, &gy))
			continue;
		if (opt == 's' && strchr(v, 'x') && parse_num(v, 1, MAX_SIZE, &w) &&
		    parse_num(strchr(v, 'x') + 1, 1, MAX_SIZE, &h))
			continue;
		fprintf(stderr, "gles-client: bad %s %s: %s\n", a, v, usage);
		return 1;
	}

	if (groups)
		cfg_attr[3] = EGL_OPENGL_ES3_BIT_KHR;
	get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		return fail("no eglGetPlatformDisplayEXT", "is Mesa's libEGL installed?");
	dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (dpy == EGL_NO_DISPLAY)
		return egl_fail("no surfaceless EGL display");
	if (!eglInitialize(dpy, &major, &minor))
		return egl_fail("eglInitialize failed (is there a /dev/dri/renderD* node?)");
	if (!eglBindAPI(EGL_OPENGL_ES_API))
		return egl_fail("eglBindAPI(GLES) failed");
	/* The surfaceless platform has pbuffer configs only */
	if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
		return egl_fail(groups ? "no EGL config for GLES 3 with a pbuffer surface type" :
				"no EGL config for GLES2 with a pbuffer surface type");
	ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, groups ? ctx31_attr : ctx2_attr);
	if (ctx == EGL_NO_CONTEXT)
		return egl_fail(groups ? "eglCreateContext(GLES 3.1) failed: -c needs compute shaders" :
				"eglCreateContext(GLES2) failed");
	if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		return egl_fail("eglMakeCurrent without a surface failed (EGL_KHR_surfaceless_context?)");
	if (groups) {
		t0 = now_s();
		if (compute_frames(frames, groups, gy, log, sizeof(log)))
			return 1;
		t1 = now_s();
		goto done;
	}

	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, (GLsizei)w, (GLsizei)h);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	if (status != GL_FRAMEBUFFER_COMPLETE) {
		snprintf(log, sizeof(log), "status 0x%04x", status);
		return fail("the RGB565 FBO is not complete", log);
	}

	vs = shader(GL_VERTEX_SHADER, vs_src, log, sizeof(log));
	fs = vs ? shader(GL_FRAGMENT_SHADER, fs_src, log, sizeof(log)) : 0;
	if (!vs || !fs)
		return fail("shader compile failed", log);
	prog = glCreateProgram();
	glAttachShader(prog, vs);
	glAttachShader(prog, fs);
	glBindAttribLocation(prog, 0, "pos");
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked) {
		glGetProgramInfoLog(prog, sizeof(log), NULL, log);
		return fail("program link failed", log);
	}
	glUseProgram(prog);
	phase = glGetUniformLocation(prog, "phase");

	/* TRIS small triangles in a row across the target */
	verts = calloc((size_t)tris * 6, sizeof(*verts));
	if (!verts)
		return fail("out of memory", NULL);
	for (i = 0; i < tris; i++) {
		GLfloat x = -1.0f + 2.0f * (GLfloat)i / (GLfloat)tris;
		GLfloat dx = 2.0f / (GLfloat)tris;

		verts[6 * i + 0] = x;
		verts[6 * i + 1] = -0.8f;
		verts[6 * i + 2] = x + dx;
		verts[6 * i + 3] = -0.8f;
		verts[6 * i + 4] = x + dx / 2;
		verts[6 * i + 5] = 0.8f;
	}
	glGenBuffers(1, &vbo);
	glBindBuffer(GL_ARRAY_BUFFER, vbo);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(tris * 6 * sizeof(*verts)), verts,
		     GL_STATIC_DRAW);
	free(verts);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	glEnableVertexAttribArray(0);
	glViewport(0, 0, (GLsizei)w, (GLsizei)h);

	t0 = now_s();
	for (f = 0; f < frames; f++) {
		glClearColor(0.1f, 0.2f, 0.3f * (GLfloat)(f & 1), 1.0f);
		glClear(GL_COLOR_BUFFER_BIT);
		glUniform1f(phase, (GLfloat)f * 0.1f);
		glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(tris * 3));
		glFinish();
	}
	t1 = now_s();
done:
	err = glGetError();
	if (err != GL_NO_ERROR) {
		snprintf(log, sizeof(log), "0x%04x", err);
		return fail("GL error while rendering", log);
	}
	if (groups)
		printf("gles-client: renderer \"%s\" version \"%s\" EGL %d.%d: %ld frames of "
		       "%ldx%ld workgroups of %d (1 dispatch + glFinish each) in %.3f s\n",
		       (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION),
		       major, minor, frames, groups, gy, LOCAL_SIZE, t1 - t0);
	else
		printf("gles-client: renderer \"%s\" version \"%s\" EGL %d.%d: %ld frames of %ldx%ld "
		       "(clear + %ld triangles in 1 draw + glFinish each) in %.3f s\n",
		       (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION),
		       major, minor, frames, w, h, tris, t1 - t0);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return 0;
}
