/* SPDX-License-Identifier: MIT */
/*
 * A Perfetto trace writer for GPU counters: just the messages a counter
 * timeline needs (perfetto.protos.Trace → TracePacket with ClockSnapshot,
 * InternedData.gpu_counter_descriptors and GpuCounterEvent; TrackDescriptor
 * and TrackEvent slices for the jobs of record --jobs), encoded by hand
 * as protobuf wire format and streamed: packets are written in chunks of
 * 64 KiB (one write per chunk, not per sample) and by pf_trace_end(), so a
 * trace of any length needs O(counters) memory.
 *
 * Field numbers and enum values are Perfetto's (protos/perfetto/trace/...,
 * gpu_counter_event.proto, gpu_counter_descriptor.proto, clock_snapshot.proto,
 * trace_packet.proto, track_event.proto, track_descriptor.proto); the tests decode every trace with protoc against
 * Perfetto's own perfetto_trace.proto.
 */
#ifndef MPC_PERFETTO_H
#define MPC_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

/* GpuCounterDescriptor.MeasureUnit (the ones our counters use). */
enum pf_unit {
	PF_UNIT_NONE = 0,
	PF_UNIT_BYTE = 7,
	PF_UNIT_HERTZ = 13,
	PF_UNIT_NANOSECOND = 19,
	PF_UNIT_SECOND = 22,
	PF_UNIT_VERTEX = 25,
	PF_UNIT_PIXEL = 26,
	PF_UNIT_TRIANGLE = 27,
	PF_UNIT_PERCENT = 37,
	PF_UNIT_PRIMITIVE = 38,
	PF_UNIT_FRAGMENT = 39,
	PF_UNIT_INSTRUCTION = 40,
};

/* GpuCounterDescriptor.GpuCounterGroup */
enum pf_group {
	PF_GROUP_UNCLASSIFIED = 0,
	PF_GROUP_SYSTEM = 1,
	PF_GROUP_VERTICES = 2,
	PF_GROUP_FRAGMENTS = 3,
	PF_GROUP_PRIMITIVES = 4,
	PF_GROUP_MEMORY = 5,
	PF_GROUP_COMPUTE = 6,
};

/* ClockSnapshot.Clock.BuiltinClocks */
#define PF_CLOCK_MONOTONIC_RAW	5
#define PF_CLOCK_BOOTTIME	6

#define PF_MAX_UNITS 4

struct pf_counter_spec {
	uint32_t id;			/* unique in the trace, not 0 */
	const char *name;
	const char *description;	/* may be NULL */
	enum pf_unit num[PF_MAX_UNITS];	/* numerator units, PF_UNIT_NONE ends */
	enum pf_unit den[PF_MAX_UNITS];	/* denominator units */
	enum pf_group group;
	int select_by_default;
};

struct pf_value {
	uint32_t id;
	int is_int;			/* int_value, else double_value */
	int64_t i;
	double d;			/* NaN or infinite: left out of the event */
};

struct pf_trace;

/*
 * @seq_id: the trusted_packet_sequence_id of every packet (not 0).
 * Returns NULL when out of memory.
 */
struct pf_trace *pf_trace_new(FILE *out, uint32_t seq_id);
/* Declare a counter before pf_trace_start(); -1 on a duplicate or bad id. */
int pf_trace_counter(struct pf_trace *t, const struct pf_counter_spec *s);
/*
 * Write the clock snapshot (MONOTONIC_RAW @raw_ns taken at BOOTTIME
 * @boot_ns) and the interned descriptor with the sampling period range.
 * Sample timestamps are MONOTONIC_RAW from then on.
 */
int pf_trace_start(struct pf_trace *t, uint64_t raw_ns, uint64_t boot_ns,
		   uint64_t min_period_ns, uint64_t max_period_ns);
/* One GpuCounterEvent at MONOTONIC_RAW @ts_ns; ids must be declared. */
int pf_trace_sample(struct pf_trace *t, uint64_t ts_ns, const struct pf_value *v,
		    unsigned int n);

/* pf_trace_values(): an int value that is not there (not collected) */
#define PF_NO_INT INT64_MIN

/*
 * The same event from values alone, in the order the counters were
 * declared: the first @ni as int values @iv (PF_NO_INT: left out), the
 * next @nd as double values @dv (NaN or infinite: left out); the bytes
 * pf_trace_sample() writes for them. Each counter's bytes but its value's
 * were made once, by pf_trace_start() and the first call: the fast path.
 * -1 when @ni + @nd is more than the declared counters.
 */
int pf_trace_values(struct pf_trace *t, uint64_t ts_ns, const int64_t *iv, unsigned int ni,
		    const double *dv, unsigned int nd);
/*
 * Job slices (record --jobs), after pf_trace_start(): a track is one
 * TrackDescriptor { uuid, name } packet; a slice is a TrackEvent
 * TYPE_SLICE_BEGIN at @begin_ns and a TYPE_SLICE_END at @end_ns
 * (MONOTONIC_RAW, like the samples) on the track @uuid. Slices of one track
 * must not overlap (they would not nest). -1 on a bad argument or a failed
 * write.
 */
int pf_trace_track(struct pf_trace *t, uint64_t uuid, const char *name);
int pf_trace_slice(struct pf_trace *t, uint64_t uuid, const char *name, uint64_t begin_ns,
		   uint64_t end_ns);
/* Write what is pending and flush; returns -1 if any write failed. Frees @t. */
int pf_trace_end(struct pf_trace *t);

#endif
