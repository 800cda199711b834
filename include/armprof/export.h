/* SPDX-License-Identifier: BSD-3-Clause */
/* Which symbols the library exports. It is built with hidden visibility
 * (CMake's C_VISIBILITY_PRESET hidden): only declarations between
 * ARMPROF_API_BEGIN and ARMPROF_API_END, the public headers' own, are
 * visible outside libarmprof.so. An embedder sees the API and nothing of
 * the model's internals. */
#ifndef ARMPROF_EXPORT_H
#define ARMPROF_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define ARMPROF_API_BEGIN _Pragma("GCC visibility push(default)")
#define ARMPROF_API_END   _Pragma("GCC visibility pop")
#else
#define ARMPROF_API_BEGIN
#define ARMPROF_API_END
#endif

#endif
