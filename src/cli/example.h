/* The built-in example scenario that `armprof demo` runs until the full
 * profiling demo exists. */
#ifndef ARMPROF_CLI_EXAMPLE_H
#define ARMPROF_CLI_EXAMPLE_H

extern const char armprof_example_scenario[];

#endif
