"""ecCodes baseline of bench/grib.ts: decode time of GRIB messages with ecCodes (python3-eccodes).

    /usr/bin/python3 bench/eccodes-decode.py MIN_TIME_MS FILE:MESSAGE [FILE:MESSAGE ...]

Prints one JSON object: the ecCodes version and, per FILE:MESSAGE, the number of values, the
packing type and, per way of decoding (see decoders()), the median milliseconds of one decode and
the number of samples; or {"error": ...} for a file that could not be decoded.

Only the decode is timed: interpreter start-up, reading the file and making the handle (parsing
the sections) happen once, outside the loop. ecCodes keeps no decoded values on the handle: every
call unpacks section 7 again. The loop mirrors bench/grib.ts (warm-up, at least MIN_TIME_MS and
30 samples unless that takes 3x as long, never under 5, median) with a sink over the values.
"""

import json
import sys
import time

import eccodes
import numpy as np

WARM_UP_RUNS = 20
WARM_UP_S = 0.5
MIN_SAMPLES = 30
FEWEST_SAMPLES = 5
MAX_TIME_FACTOR = 3


def decoders(gid, count):
    """Two ways to decode the handle's values, each one call per decode.

    "preallocated": grib_get_double_array into an array allocated once: the C call under
    codes_get_values, so neither the NumPy allocation nor the Python wrapper is timed; the
    strict decode-only figure. "allocating": codes_get_values, which allocates the output array
    on each call, as decodeField() allocates the Float32Array it returns.
    """
    result = {"allocating": lambda: eccodes.codes_get_values(gid)}
    try:
        from gribapi import bindings, gribapi

        lib, ffi = bindings.lib, bindings.ffi
        handle = gribapi.get_handle(gid)
    except (ImportError, AttributeError):
        return result  # an eccodes-python without these cffi internals: the public call only
    out = np.empty((count,), dtype="float64")
    length = ffi.new("size_t*", count)
    pointer = ffi.cast("double *", out.ctypes.data)

    def decode():
        length[0] = count
        err = lib.grib_get_double_array(handle, b"values", pointer, length)
        if err:
            raise RuntimeError(f"grib_get_double_array: {eccodes.codes_get_error_message(err)}")
        return out

    result["preallocated"] = decode
    return result


def median_ms(decode, count, min_time_s):
    """Median milliseconds of one decode, and the number of samples."""
    sink = 0.0
    started = time.perf_counter()
    for _ in range(WARM_UP_RUNS):
        if time.perf_counter() - started >= WARM_UP_S:
            break
        values = decode()
        sink += values[0] + values[count >> 1]
    samples = []
    started = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - started
        if (elapsed >= min_time_s and len(samples) >= FEWEST_SAMPLES
                and (len(samples) >= MIN_SAMPLES or elapsed >= MAX_TIME_FACTOR * min_time_s)):
            break
        t0 = time.perf_counter()
        values = decode()
        samples.append(time.perf_counter() - t0)
        sink += values[0] + values[count >> 1]
    if sink != sink:
        raise ValueError("the sink is NaN: a decode gave no numbers")
    samples.sort()
    mid = len(samples) // 2
    median = samples[mid] if len(samples) % 2 else (samples[mid - 1] + samples[mid]) / 2
    return median * 1000, len(samples)


def open_message(path, index):
    """A handle on message `index` (0-based) of the file."""
    with open(path, "rb") as f:
        for k in range(index + 1):
            gid = eccodes.codes_grib_new_from_file(f)
            if gid is None:
                raise ValueError(f"{path} has no message {index}")
            if k < index:
                eccodes.codes_release(gid)
    return gid


def bench(path, index, min_time_s):
    gid = open_message(path, index)
    try:
        count = eccodes.codes_get_size(gid, "values")
        result = {"numberOfValues": count, "packingType": eccodes.codes_get_string(gid, "packingType")}
        for mode, decode in decoders(gid, count).items():
            ms, samples = median_ms(decode, count, min_time_s)
            result[mode] = {"medianMs": ms, "samples": samples}
        return result
    finally:
        eccodes.codes_release(gid)


def main():
    min_time_s = float(sys.argv[1]) / 1000
    results = {}
    for arg in sys.argv[2:]:
        path, _, index = arg.rpartition(":")
        try:
            results[arg] = bench(path, int(index), min_time_s)
        except Exception as error:  # reported per file, the other files still run
            results[arg] = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps({"version": eccodes.codes_get_api_version(), "results": results}))


if __name__ == "__main__":
    main()
