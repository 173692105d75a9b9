// SPDX-License-Identifier: MIT
/*
 * Captures of mali_perfcnt's sampling stream: what read() on a STREAM_OPEN
 * fd, or `cat perfcnt_stream`, returns: struct drm_mali_perfcnt_record
 * headers back to back, a SAMPLE's dump after its header.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mali_perfcnt_drm.h"
#include "tool.h"

/* The record at @off, if it is whole and well formed for @dump_size dumps. */
static const struct drm_mali_perfcnt_record *record_at(const void *buf, size_t len, size_t off,
						       uint32_t dump_size)
{
	const struct drm_mali_perfcnt_record *r = (const void *)((const char *)buf + off);

	if (off % 8 || len - off < sizeof(*r))
		return NULL;
	if (r->header_size < sizeof(*r) || r->header_size % 8 || r->size < r->header_size ||
	    r->size % 8 || r->size > len - off)
		return NULL;
	switch (r->type) {
	case MALI_PERFCNT_RECORD_SAMPLE:
		return r->size - r->header_size == dump_size ? r : NULL;
	case MALI_PERFCNT_RECORD_LOST:
	case MALI_PERFCNT_RECORD_ERROR:
		return r;
	default:
		/* a newer driver's record type: skipped by size */
		return r;
	}
}

/*
 * Every byte is a well-formed record, and the first is the one a stream
 * starts with (a SAMPLE with MALI_PERFCNT_DATA_FIRST), so a file of raw
 * dumps, whose first words are a block header, is not taken for one.
 */
int capture_is_records(const void *buf, size_t len, uint32_t dump_size)
{
	const struct drm_mali_perfcnt_record *r = record_at(buf, len, 0, dump_size);
	size_t off = 0;

	if (!r || r->type != MALI_PERFCNT_RECORD_SAMPLE ||
	    !(r->data_flags & MALI_PERFCNT_DATA_FIRST))
		return 0;
	while (off < len) {
		r = record_at(buf, len, off, dump_size);
		if (!r)
			return 0;
		off += r->size;
	}
	return 1;
}

/* The next record from *@off (advanced), NULL at the end. */
const struct drm_mali_perfcnt_record *capture_next(const void *buf, size_t len, size_t *off)
{
	const struct drm_mali_perfcnt_record *r;

	if (*off >= len || len - *off < sizeof(*r))
		return NULL;
	r = (const void *)((const char *)buf + *off);
	*off += r->size;
	return r;
}
