// Command canon keeps a derived index and graph of a Markdown knowledge base
// in step with git. This file only wires commands; each command fills its
// arguments and makes one call into the package that does the work.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	// CANON_CPUPROFILE=FILE writes a CPU profile of this run, for
	// performance reports.
	if p := os.Getenv("CANON_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "canon: error: cannot write the CPU profile: %v\n", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		code := run(os.Args, os.Stdout, os.Stderr)
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(code)
	}
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}
