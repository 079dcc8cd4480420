// Command canon keeps a derived index and graph of a Markdown knowledge base
// in step with git. This file only wires commands; each command fills its
// arguments and makes one call into the package that does the work.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}
